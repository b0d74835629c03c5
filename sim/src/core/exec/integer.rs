//! RV32I's register and immediate arithmetic and the M extension.

use wsim_isa::{Instr, Op};

use super::{ExecResult, Next};
use crate::core::warp::{lanes, Operand};
use crate::core::Core;

impl Core {
    pub(super) fn integer(&mut self, w: usize, pc: u32, mask: u32, i: &Instr) -> ExecResult<Next> {
        let warp = &mut self.warps[w];
        macro_rules! rr {
            ($f:expr) => {
                warp.alu_rows(i.rd, i.rs1, Operand::Reg(i.rs2), mask, $f)
            };
        }
        macro_rules! ri {
            ($f:expr) => {
                warp.alu_rows(i.rd, i.rs1, Operand::Imm(i.imm as u32), mask, $f)
            };
        }
        // Division lane by lane: only the active lanes pay for it.
        macro_rules! lane_rr {
            ($f:expr) => {{
                for l in lanes(mask) {
                    let v = $f(warp.x(i.rs1, l), warp.x(i.rs2, l));
                    warp.set_x(i.rd, l, v);
                }
            }};
        }
        match i.op {
            Op::Lui => ri!(|_, imm| imm),
            Op::Auipc => ri!(|_, imm: u32| pc.wrapping_add(imm)),
            Op::Addi => ri!(|a: u32, b| a.wrapping_add(b)),
            Op::Slti => ri!(|a, b| ((a as i32) < (b as i32)) as u32),
            Op::Sltiu => ri!(|a, b| (a < b) as u32),
            Op::Xori => ri!(|a, b| a ^ b),
            Op::Ori => ri!(|a, b| a | b),
            Op::Andi => ri!(|a, b| a & b),
            Op::Slli => ri!(|a: u32, b| a << (b & 31)),
            Op::Srli => ri!(|a: u32, b| a >> (b & 31)),
            Op::Srai => ri!(|a, b| ((a as i32) >> (b & 31)) as u32),
            Op::Add => rr!(|a: u32, b| a.wrapping_add(b)),
            Op::Sub => rr!(|a: u32, b| a.wrapping_sub(b)),
            Op::Sll => rr!(|a: u32, b| a << (b & 31)),
            Op::Slt => rr!(|a, b| ((a as i32) < (b as i32)) as u32),
            Op::Sltu => rr!(|a, b| (a < b) as u32),
            Op::Xor => rr!(|a, b| a ^ b),
            Op::Srl => rr!(|a: u32, b| a >> (b & 31)),
            Op::Sra => rr!(|a, b| ((a as i32) >> (b & 31)) as u32),
            Op::Or => rr!(|a, b| a | b),
            Op::And => rr!(|a, b| a & b),
            Op::Mul => rr!(|a: u32, b| a.wrapping_mul(b)),
            Op::Mulh => rr!(|a, b| ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32),
            Op::Mulhsu => rr!(|a, b| ((i64::from(a as i32) * i64::from(b)) >> 32) as u32),
            Op::Mulhu => rr!(|a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32),
            Op::Div => lane_rr!(|a, b| match (a as i32, b as i32) {
                (_, 0) => u32::MAX,
                (i32::MIN, -1) => i32::MIN as u32,
                (x, y) => (x / y) as u32,
            }),
            Op::Divu => lane_rr!(|a: u32, b| a.checked_div(b).unwrap_or(u32::MAX)),
            Op::Rem => lane_rr!(|a, b| match (a as i32, b as i32) {
                (x, 0) => x as u32,
                (i32::MIN, -1) => 0,
                (x, y) => (x % y) as u32,
            }),
            Op::Remu => lane_rr!(|a, b| if b == 0 { a } else { a % b }),
            op => unreachable!("{op:?} is not an integer operation"),
        }
        Ok(Next::Advance)
    }
}
