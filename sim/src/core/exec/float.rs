//! The F extension's arithmetic, conversions, comparisons and moves (flw/fsw are memory
//! instructions): exact single precision through `core/fpu/`, per-lane rounding modes
//! and exception flags.

use wsim_isa::{Instr, Op};

use super::{ExecResult, Next, Trap};
use crate::core::fpu;
use crate::core::warp::lanes;
use crate::core::Core;

impl Core {
    pub(super) fn float(&mut self, w: usize, mask: u32, i: &Instr) -> ExecResult<Next> {
        let warp = &mut self.warps[w];
        let int_src = matches!(i.op, Op::FcvtSW | Op::FcvtSWu | Op::FmvWX);
        let int_dst = matches!(
            i.op,
            Op::FcvtWS | Op::FcvtWuS | Op::FmvXW | Op::FeqS | Op::FltS | Op::FleS | Op::FclassS
        );
        for l in lanes(mask) {
            let rm = match i.rm {
                7 => warp.frm[l],
                rm => rm,
            };
            if rm > 4 {
                let reason = format!("dynamic rounding mode with frm = {rm}");
                return Err(Trap::illegal(wsim_isa::encode(i), reason).into());
            }
            let a = if int_src {
                warp.x(i.rs1, l)
            } else {
                warp.f(i.rs1, l)
            };
            let (b, c) = (warp.f(i.rs2, l), warp.f(i.rs3, l));
            let (v, flags) = fpu::execute(i.op, a, b, c, rm).expect("an F-extension operation");
            warp.fflags[l] |= flags;
            if int_dst {
                warp.set_x(i.rd, l, v);
            } else {
                warp.set_f(i.rd, l, v);
            }
        }
        Ok(Next::Advance)
    }
}
