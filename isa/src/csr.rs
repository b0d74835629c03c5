//! CSR numbers: the standard ones the engine implements and Vortex's.

// Floating point.
pub const FFLAGS: u16 = 0x001;
pub const FRM: u16 = 0x002;
pub const FCSR: u16 = 0x003;

// Machine mode: what riscv-tests' start-up code touches.
pub const MSTATUS: u16 = 0x300;
pub const MISA: u16 = 0x301;
pub const MEDELEG: u16 = 0x302;
pub const MIDELEG: u16 = 0x303;
pub const MIE: u16 = 0x304;
pub const MTVEC: u16 = 0x305;
pub const MSCRATCH: u16 = 0x340;
pub const MEPC: u16 = 0x341;
pub const MCAUSE: u16 = 0x342;
pub const MTVAL: u16 = 0x343;
pub const MIP: u16 = 0x344;
pub const SATP: u16 = 0x180;
pub const PMPCFG0: u16 = 0x3A0;
pub const PMPADDR0: u16 = 0x3B0;
pub const MHARTID: u16 = 0xF14;

// Counters.
pub const MCYCLE: u16 = 0xB00;
pub const MINSTRET: u16 = 0xB02;
pub const MCYCLEH: u16 = 0xB80;
pub const MINSTRETH: u16 = 0xB82;
pub const CYCLE: u16 = 0xC00;
pub const TIME: u16 = 0xC01;
pub const INSTRET: u16 = 0xC02;
pub const CYCLEH: u16 = 0xC80;
pub const TIMEH: u16 = 0xC81;
pub const INSTRETH: u16 = 0xC82;

// Vortex: per-lane identity and per-core geometry (read-only).
pub const VX_THREAD_ID: u16 = 0xCC0;
pub const VX_WARP_ID: u16 = 0xCC1;
pub const VX_CORE_ID: u16 = 0xCC2;
pub const VX_ACTIVE_WARPS: u16 = 0xCC3;
pub const VX_THREAD_MASK: u16 = 0xCC4;
pub const VX_NUM_THREADS: u16 = 0xFC0;
pub const VX_NUM_WARPS: u16 = 0xFC1;
pub const VX_NUM_CORES: u16 = 0xFC2;
pub const VX_LOCAL_MEM_BASE: u16 = 0xFC3;

/// wsim: the statistics phase of the writing core (read/write; see docs/ISA.md).
pub const WSIM_PHASE: u16 = 0x7C0;

/// Name `llvm-objdump` prints for a CSR number, if it has one.
pub fn name(csr: u16) -> Option<&'static str> {
    Some(match csr {
        FFLAGS => "fflags",
        FRM => "frm",
        FCSR => "fcsr",
        MSTATUS => "mstatus",
        MISA => "misa",
        MEDELEG => "medeleg",
        MIDELEG => "mideleg",
        MIE => "mie",
        MTVEC => "mtvec",
        MSCRATCH => "mscratch",
        MEPC => "mepc",
        MCAUSE => "mcause",
        MTVAL => "mtval",
        MIP => "mip",
        SATP => "satp",
        PMPCFG0 => "pmpcfg0",
        PMPADDR0 => "pmpaddr0",
        MHARTID => "mhartid",
        MCYCLE => "mcycle",
        MINSTRET => "minstret",
        MCYCLEH => "mcycleh",
        MINSTRETH => "minstreth",
        CYCLE => "cycle",
        TIME => "time",
        INSTRET => "instret",
        CYCLEH => "cycleh",
        TIMEH => "timeh",
        INSTRETH => "instreth",
        _ => return None,
    })
}
