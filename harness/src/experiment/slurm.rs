//! An experiment as a Slurm job array: one shard of the runs per array task, every task
//! writing into the shared cache directory; `wsim experiment collect` then makes the same
//! table and plots a local run makes.

use std::fmt::Write as _;
use std::path::Path;

use super::{Experiment, Outputs, SlurmSpec};

/// What the script asks of Slurm: the file's `[slurm]` table, overridden per option.
#[derive(Clone, Debug, Default)]
pub struct Resources {
    /// Array tasks (shards).
    pub tasks: usize,
    pub spec: SlurmSpec,
}

/// A path for a shell script: absolute (the job runs wherever Slurm puts it), single-quoted.
fn quoted(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    shell_word(&absolute.display().to_string())
}

/// `text` single-quoted for the shell.
fn shell_word(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The `sbatch` script that runs `experiment` as `resources.tasks` array tasks with the
/// wsim at `wsim`, into `outputs`; task logs go to `outputs.dir/slurm/`.
pub fn script(
    experiment: &Experiment,
    outputs: &Outputs,
    wsim: &Path,
    resources: &Resources,
) -> String {
    let tasks = resources.tasks.max(1);
    let spec = &resources.spec;
    let logs = std::path::absolute(logs(outputs)).unwrap_or_else(|_| logs(outputs));
    // The tasks and collect read the file as this command did: its profile, its part.
    let mut selection = String::new();
    let options = [
        ("--profile", experiment.profile.clone().unwrap_or_default()),
        ("--graphs", experiment.kept_graphs.join(",")),
        ("--programs", experiment.kept_programs.join(",")),
        ("--readings", experiment.kept_readings.join(",")),
    ];
    for (option, value) in options.iter().filter(|(_, v)| !v.is_empty()) {
        selection.push_str(&format!(" {option} {}", shell_word(value)));
    }
    let mut s = String::new();
    let _ = writeln!(s, "#!/bin/bash");
    let _ = writeln!(
        s,
        "# wsim experiment {} ({} runs) as a Slurm array of {tasks} tasks, one shard each.\n\
         # Written by `wsim experiment slurm`. Submit: sbatch THIS_FILE; when every task has\n\
         # finished: wsim experiment collect {}{selection} --out {} --cache {}",
        experiment.name,
        experiment.runs.len(),
        quoted(&experiment.path),
        quoted(&outputs.dir),
        quoted(&outputs.cache),
    );
    let _ = writeln!(s, "#SBATCH --job-name=wsim-{}", experiment.name);
    let _ = writeln!(s, "#SBATCH --array=0-{}", tasks - 1);
    let _ = writeln!(s, "#SBATCH --output={}/%x-%A_%a.out", logs.display());
    let _ = writeln!(
        s,
        "#SBATCH --cpus-per-task={}",
        spec.cpus_per_task.unwrap_or(1)
    );
    for (option, value) in [
        ("mem", &spec.mem),
        ("time", &spec.time),
        ("partition", &spec.partition),
    ] {
        if let Some(v) = value {
            let _ = writeln!(s, "#SBATCH --{option}={v}");
        }
    }
    for option in &spec.options {
        let _ = writeln!(s, "#SBATCH {option}");
    }
    let _ = writeln!(s, "set -euo pipefail");
    let _ = writeln!(
        s,
        "# One simulation per CPU Slurm gave the task.\n\
         exec {} experiment run {}{selection} --shard \"$SLURM_ARRAY_TASK_ID/{tasks}\" \
         --jobs \"${{SLURM_CPUS_PER_TASK:-1}}\" --out {} --cache {}",
        quoted(wsim),
        quoted(&experiment.path),
        quoted(&outputs.dir),
        quoted(&outputs.cache),
    );
    s
}

/// The log directory the script's `--output` names (it must exist before the tasks run).
pub fn logs(outputs: &Outputs) -> std::path::PathBuf {
    outputs.dir.join("slurm")
}
