use super::*;

#[test]
fn defaults_validate() {
    assert_eq!(Config::default().validate(), Ok(()));
}

#[test]
fn unknown_key_names_path_and_nearest() {
    let err = Config::from_toml("[gpu]\nwarps_per_cor = 8\n", "x.toml").unwrap_err();
    assert_eq!(
        err.0,
        "x.toml: line 2: unknown key `gpu.warps_per_cor` (did you mean `gpu.warps_per_core`?)"
    );
}

#[test]
fn bad_value_is_reported() {
    let err = Config::from_toml("[gpu]\nthreads_per_warp = 64\n", "x.toml").unwrap_err();
    assert!(
        err.0.contains("gpu.threads_per_warp = 64 must be 1..=32"),
        "{}",
        err.0
    );
    let err = Config::from_toml("[gpu]\nthreads_per_warp = \"many\"\n", "x.toml").unwrap_err();
    assert!(err.0.starts_with("x.toml: "), "{}", err.0);
}

#[test]
fn overrides_apply_and_are_checked() {
    let c = Config::default()
        .with_overrides(&[
            "gpu.warps_per_core=32".into(),
            "run.start=first-core".into(),
        ])
        .unwrap();
    assert_eq!(c.gpu.warps_per_core, 32);
    assert_eq!(c.run.start, StartCores::FirstCore);
    let err = Config::default()
        .with_overrides(&["gpu.warp=3".into()])
        .unwrap_err();
    assert!(err.0.contains("unknown key `gpu.warp`"), "{}", err.0);
}

#[test]
fn the_largest_machine_the_limits_allow_is_valid_and_its_caches_are_bounded_together() {
    let set = |items: &[&str]| {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        Config::default().with_overrides(&items)
    };
    let largest = [
        "gpu.clusters=8",
        "gpu.cores_per_cluster=32",
        "gpu.warps_per_core=32",
        "gpu.threads_per_warp=32",
        "local_mem.size=1048576",
        "core.ibuffer=64",
    ];
    assert!(set(&largest).is_ok());
    // Each cache within its own limit, but 4-byte lines make 16 bytes of tags per 4.
    let err = set(&[
        "memory.l1d.size=268435456",
        "memory.l1d.line=4",
        "memory.l1i.line=4",
        "memory.l2.line=4",
        "memory.l3.line=4",
        "memory.dram.line_bytes=4",
        "memory.dram.bus_bytes=1",
        "memory.dram.burst_length=4",
    ])
    .unwrap_err();
    assert!(
        err.0
            .starts_with("--set memory.l1d.size=268435456: memory.l1d.size, ")
            && err.0.contains("need 1028 MiB of host memory")
            && err.0.contains("more than 1024 MiB"),
        "{}",
        err.0
    );
}

#[test]
fn problems_in_a_file_name_their_lines() {
    let text = "[gpu]\nclusters = 2\n\n[core]\nibuffer = 0\nregister_banks = 33\n";
    let err = Config::from_toml(text, "m.toml").unwrap_err();
    assert_eq!(
        err.0,
        "m.toml: line 5: core.ibuffer = 0 must be 1..=64; \
         m.toml: line 6: core.register_banks = 33 must be 1..=32"
    );
    // A cross-check names the line of the first key it mentions.
    let text = "[local_mem]\nsize = 4096\n[weaver]\nentries = 1000\n";
    let err = Config::from_toml(text, "m.toml").unwrap_err();
    assert!(
        err.0
            .starts_with("m.toml: line 4: weaver.entries = 1000 needs"),
        "{}",
        err.0
    );
}

#[test]
fn hash_is_stable_and_sensitive() {
    let a = Config::default();
    let mut b = Config::default();
    assert_eq!(a.hash(), b.hash());
    b.gpu.warps_per_core = 8;
    assert_ne!(a.hash(), b.hash());
}

/// Settings that passed validation and then failed every run, or failed it at run time
/// (issue 47): each is refused when the configuration is read, naming the keys.
#[test]
fn settings_that_fail_every_run_are_refused_up_front() {
    let refused = |item: &str, expected: &str| {
        let err = Config::default()
            .with_overrides(&[item.to_string()])
            .unwrap_err();
        assert!(err.0.contains(expected), "{item}: {}", err.0);
    };
    // Every console store failed as "a null pointer?".
    refused(
        "io.exit=0",
        "io.exit = 0x0 lies below io.null_guard = 0x1000",
    );
    refused(
        "io.null_guard=0x80000000",
        "io.console = 0x8340 lies below io.null_guard = 0x80000000",
    );
    refused(
        "local_mem.base=0x800",
        "local_mem.base = 0x800 lies below io.null_guard = 0x1000",
    );
    // The unit is present when a program has Weaver instructions: its L1D (163 bytes)
    // failed the run ("must be a power of two").
    refused(
        "weaver.l1d_reduction_percent=99",
        "with weaver.l1d_reduction_percent applied",
    );
    assert!(Config::default()
        .with_overrides(&[
            "weaver.enabled=off".into(),
            "weaver.l1d_reduction_percent=99".into()
        ])
        .is_ok());
}
