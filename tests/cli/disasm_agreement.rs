//! `wsim disasm` agrees with LLVM 14's `llvm-objdump -d` on every standard instruction of
//! programs/isa_cover/isa_cover.S (assembled here) and of every program under
//! programs/build/ (when they have been built). Needs clang, ld.lld and llvm-objdump.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const MISSING_TOOLS: &str =
    "this test needs clang, ld.lld and llvm-objdump: install clang lld llvm (CI installs them)";

fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}\n{MISSING_TOOLS}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Instruction lines of a disassembly: address -> text after the bytes, trailing
/// whitespace removed (objdump leaves a tab after operand-less mnemonics). Lines without
/// a tab (objdump's data dumps of object symbols) are left out.
fn instructions(listing: &str) -> BTreeMap<u64, String> {
    listing
        .lines()
        .filter_map(|line| {
            let (addr, rest) = line.split_once(':')?;
            let addr = u64::from_str_radix(addr.trim(), 16).ok()?;
            let (_bytes, text) = rest.split_once('\t')?;
            Some((addr, text.trim_end().to_string()))
        })
        .collect()
}

fn elfs_under(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            elfs_under(&path, found);
        } else if path.extension().is_some_and(|e| e == "elf") {
            found.push(path);
        }
    }
}

fn assemble_cover(dir: &Path) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/isa_cover/isa_cover.S");
    let elf = dir.join("isa_cover.elf");
    run(Command::new("clang")
        .args([
            "--target=riscv32",
            "-march=rv32imaf",
            "-mabi=ilp32f",
            "-nostdlib",
            "-fuse-ld=lld",
            "-Wl,-Ttext=0x80000000",
            "-o",
        ])
        .arg(&elf)
        .arg(&src));
    elf
}

/// Compares one file; returns the mnemonics wsim printed where the two agree.
fn compare(elf: &Path, mismatches: &mut Vec<String>) -> BTreeSet<String> {
    let wsim = instructions(&run(Command::new(env!("CARGO_BIN_EXE_wsim"))
        .arg("disasm")
        .arg(elf)));
    let objdump = instructions(&run(Command::new("llvm-objdump")
        .args(["-d", "--mattr=+m,+a,+f"])
        .arg(elf)));
    assert!(
        !objdump.is_empty(),
        "objdump printed no instructions for {}",
        elf.display()
    );
    let mut mnemonics = BTreeSet::new();
    for (addr, theirs) in &objdump {
        let ours = wsim.get(addr).map(String::as_str);
        let ok = if theirs == "<unknown>" {
            // Custom instructions, data, or objdump's 2-byte steps through words that are
            // not instructions.
            match ours {
                None | Some("<unknown>") => true,
                Some(text) => is_custom(text),
            }
        } else {
            ours == Some(theirs.as_str())
        };
        if ok {
            if let Some(text) = ours.filter(|t| *t != "<unknown>") {
                mnemonics.insert(text.split('\t').next().unwrap_or(text).to_string());
            }
        } else {
            mismatches.push(format!(
                "{} {addr:#x}: objdump {theirs:?}, wsim {ours:?}",
                elf.display()
            ));
        }
    }
    mnemonics
}

#[test]
fn wsim_disasm_agrees_with_llvm_objdump() {
    let dir = std::env::temp_dir().join(format!("wsim-disasm-agreement-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cover = assemble_cover(&dir);
    let mut elfs = vec![cover.clone()];
    elfs_under(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/build"),
        &mut elfs,
    );

    let mut mismatches = Vec::new();
    let mut all = BTreeSet::new();
    let mut cover_mnemonics = BTreeSet::new();
    for elf in &elfs {
        let m = compare(elf, &mut mismatches);
        if *elf == cover {
            cover_mnemonics = m.clone();
        }
        all.extend(m);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        mismatches.is_empty(),
        "{} disagreements:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );

    // isa_cover must exercise every mnemonic (and pseudo form) wsim can print.
    let expected: BTreeSet<String> = EXPECTED_COVER
        .split_whitespace()
        .map(String::from)
        .collect();
    let missing: Vec<_> = expected.difference(&cover_mnemonics).collect();
    assert!(
        missing.is_empty(),
        "isa_cover.S no longer covers {missing:?}"
    );
    let custom = all.iter().filter(|m| is_custom(m)).count();
    println!(
        "disasm agreement: {} files, {} distinct mnemonics ({} custom, {} standard incl. \
         pseudo forms and aq/rl variants)",
        elfs.len(),
        all.len(),
        custom,
        all.len() - custom
    );
}

/// A mnemonic of the custom encodings (Vortex, SparseWeaver, wsim's float atomic), which
/// objdump does not know.
fn is_custom(text: &str) -> bool {
    ["vx_", "weaver.", "amoadd.f"]
        .iter()
        .any(|p| text.starts_with(p))
}

const EXPECTED_COVER: &str = "
    lui auipc jal j jalr jr ret
    beq bne blt bge bltu bgeu beqz bnez bltz bgtz blez bgez
    lb lh lw lbu lhu sb sh sw
    addi nop li mv slti sltiu seqz xori not ori andi slli srli srai
    add sub neg sll slt sltz sgtz sltu snez xor srl sra or and
    fence fence.tso fence.i ecall ebreak mret wfi unimp
    csrrw csrrs csrrc csrrwi csrrsi csrrci csrr csrw csrs csrc csrwi csrsi csrci
    rdcycle rdtime rdinstret rdcycleh rdtimeh rdinstreth
    frcsr fscsr frrm fsrm fsrmi frflags fsflags fsflagsi
    mul mulh mulhsu mulhu div divu rem remu
    lr.w lr.w.aq lr.w.rl lr.w.aqrl sc.w sc.w.aq sc.w.rl sc.w.aqrl
    amoswap.w amoswap.w.aq amoswap.w.rl amoswap.w.aqrl
    amoadd.w amoadd.w.aq amoadd.w.rl amoadd.w.aqrl
    amoxor.w amoxor.w.aq amoxor.w.rl amoxor.w.aqrl
    amoand.w amoand.w.aq amoand.w.rl amoand.w.aqrl
    amoor.w amoor.w.aq amoor.w.rl amoor.w.aqrl
    amomin.w amomin.w.aq amomin.w.rl amomin.w.aqrl
    amomax.w amomax.w.aq amomax.w.rl amomax.w.aqrl
    amominu.w amominu.w.aq amominu.w.rl amominu.w.aqrl
    amomaxu.w amomaxu.w.aq amomaxu.w.rl amomaxu.w.aqrl
    flw fsw fmadd.s fmsub.s fnmsub.s fnmadd.s fadd.s fsub.s fmul.s fdiv.s fsqrt.s
    fsgnj.s fsgnjn.s fsgnjx.s fmv.s fneg.s fabs.s fmin.s fmax.s
    fcvt.w.s fcvt.wu.s fcvt.s.w fcvt.s.wu fmv.x.w fmv.w.x feq.s flt.s fle.s fclass.s
    vx_tmc vx_wspawn vx_split vx_split_n vx_join vx_bar vx_pred vx_pred_n vx_wsync
    vx_vote.all vx_vote.any vx_vote.uni vx_vote.ballot
    vx_shfl.up vx_shfl.down vx_shfl.bfly vx_shfl.idx
    weaver.dec_id weaver.dec_loc weaver.reg weaver.skip amoadd.f
";
