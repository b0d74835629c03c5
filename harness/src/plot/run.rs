//! `wsim plot RUN.json`: one run's issue slots per core and per phase, from its JSON report.

use std::path::Path;

use wsim_sim::report::Report;
use wsim_sim::stats::{CoreCounters, SlotReason};
use wsim_workloads::record::GraphRun;

use super::draw::{self, Labels, Legend, StackedBars, Style};

/// `wsim plot`: one run's issue slots by reason per core and per phase, as stacked bars
/// side by side, from its JSON report (`wsim run --json`), into `out`.
pub fn run(report_path: &Path, out: &Path) -> anyhow::Result<()> {
    let text = crate::files::read_text(report_path, crate::REPORT_BYTES, "a report")?;
    let report: Report<GraphRun> = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}: not a wsim run's report (schema wsim-stats/1; write one with wsim run \
             --json): {e}",
            report_path.display()
        )
    })?;
    let reasons: Vec<String> = SlotReason::ALL.map(|r| r.name().to_string()).to_vec();
    let slots = |counters: &CoreCounters| -> Vec<f64> {
        SlotReason::ALL
            .map(|r| counters.slots.get(r) as f64)
            .to_vec()
    };
    let per_core = StackedBars {
        bars: (0..report.cores.len()).map(|c| c.to_string()).collect(),
        values: report.cores.iter().map(|c| slots(&c.total)).collect(),
        parts: reasons.clone(),
        percent: true,
        groups: Vec::new(),
        failed: Vec::new(),
    };
    let per_phase = StackedBars {
        bars: report.phases.keys().map(|p| p.to_string()).collect(),
        values: report.phases.values().map(slots).collect(),
        parts: reasons.clone(),
        percent: true,
        groups: Vec::new(),
        failed: Vec::new(),
    };
    let mut caption = format!(
        "{} · {} cycles · config {}",
        report.program, report.cycles, report.config_hash
    );
    if let Some(graph) = &report.graph {
        caption.push_str(&format!(" · graph {}", graph.spec));
    }
    match report.status {
        wsim_sim::report::Status::Ok => {}
        wsim_sim::report::Status::Failed => {
            caption.push_str(" · FAILED (statistics up to the failure)")
        }
        wsim_sim::report::Status::Interrupted => {
            caption.push_str(" · INTERRUPTED (partial statistics)")
        }
    }
    let style = Style {
        width: 1000,
        ..Style::default()
    };
    let legend = Legend::parts(Some("slot reason".into()), reasons);
    draw::figure(out, &style, "", &[caption], &legend, |area| {
        let panels = draw::panels(area, 2);
        let core_labels = Labels {
            title: "issue slots per core".into(),
            x: "core".into(),
            y: "share of the core's issue slots (%)".into(),
        };
        draw::stacked_bars(&panels[0], &style, &core_labels, &per_core)?;
        let phase_labels = Labels {
            title: "issue slots per phase (all cores)".into(),
            x: "phase".into(),
            y: "share of the phase's issue slots (%)".into(),
        };
        draw::stacked_bars(&panels[1], &style, &phase_labels, &per_phase)
    })
}
