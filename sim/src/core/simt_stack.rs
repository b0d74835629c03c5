//! The SIMT reconvergence stack of a warp.
//!
//! The top entry is the path that executes: its PC and its lane mask. When the lanes of
//! a branch disagree, the top entry becomes the *reconvergence entry*: its PC is set to the
//! branch's immediate post-dominator and one entry per path is pushed above it, each
//! carrying that reconvergence PC. A path pops when it reaches it, so the lanes meet again
//! with the full mask (GPGPU-Sim's PDOM stack).
//!
//! When the immediate post-dominator is the function's exit (`FunctionExit`), no PC is
//! known in advance: the paths reconverge where they return to. Each entry counts the calls
//! it made (`calls`); a return at depth 0 ends the path and hands the return address to
//! the waiting reconvergence entry, which then performs that return itself. Call counting
//! also keeps a recursive call from popping a path at its own reconvergence PC.

use crate::cfg::Reconvergence;
use crate::error::{ErrorKind, SimError, SimResult};

/// Where a path stops and rejoins the entry below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejoin {
    /// The bottom entry: never.
    Never,
    At(u32),
    /// When the function the divergence happened in returns.
    FunctionExit,
}

impl From<Reconvergence> for Rejoin {
    fn from(r: Reconvergence) -> Self {
        match r {
            Reconvergence::At(pc) => Rejoin::At(pc),
            Reconvergence::FunctionExit => Rejoin::FunctionExit,
        }
    }
}

/// The PC of a reconvergence entry waiting for its paths to return (never a real PC:
/// instructions are 4-byte aligned).
const AWAIT_RETURN: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub pc: u32,
    pub mask: u32,
    pub rejoin: Rejoin,
    /// Calls made by this path and not yet returned.
    pub calls: u32,
    /// For a reconvergence entry awaiting a function exit: the address its paths returned to.
    return_to: Option<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct SimtStack {
    entries: Vec<Entry>,
}

impl SimtStack {
    /// A stack with one path at `pc` with `mask`.
    pub fn start(&mut self, pc: u32, mask: u32) {
        self.entries.clear();
        self.entries.push(Entry {
            pc,
            mask,
            rejoin: Rejoin::Never,
            calls: 0,
            return_to: None,
        });
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn depth(&self) -> usize {
        self.entries.len()
    }

    /// The executing path. Only called on a live warp (non-empty stack).
    #[inline]
    pub fn top(&self) -> &Entry {
        self.entries.last().expect("a live warp has a path")
    }

    #[inline]
    fn top_mut(&mut self) -> &mut Entry {
        self.entries.last_mut().expect("a live warp has a path")
    }

    #[inline]
    pub fn pc(&self) -> u32 {
        self.top().pc
    }

    #[inline]
    pub fn mask(&self) -> u32 {
        self.top().mask
    }

    /// Replace the executing path's lane mask (TMC, PRED, SPLIT, JOIN).
    pub fn set_mask(&mut self, mask: u32) {
        self.top_mut().mask = mask;
    }

    /// Continue the executing path at `pc` (all its lanes agree).
    #[inline]
    pub fn jump(&mut self, pc: u32) -> SimResult<()> {
        self.top_mut().pc = pc;
        self.reconverge()
    }

    /// A call by all lanes of the path to `target`.
    pub fn call(&mut self, target: u32) -> SimResult<()> {
        let top = self.top_mut();
        top.calls += 1;
        top.pc = target;
        self.reconverge()
    }

    /// A return by all lanes of the path to `target`.
    pub fn ret(&mut self, target: u32) -> SimResult<()> {
        self.return_top(target);
        self.reconverge()
    }

    fn return_top(&mut self, target: u32) {
        let top = self.top_mut();
        if top.calls > 0 {
            top.calls -= 1;
            top.pc = target;
        } else if top.rejoin == Rejoin::FunctionExit {
            // The path leaves the function it diverged in: it is done.
            self.entries.pop();
            if let Some(waiting) = self.entries.iter_mut().rev().find(|e| e.pc == AWAIT_RETURN) {
                waiting.return_to.get_or_insert(target);
            }
        } else {
            top.pc = target;
        }
    }

    /// The lanes of the path split: `paths` are (pc, lanes, calls) in execution order;
    /// they rejoin at `rejoin`. A path already at the rejoin PC waits there.
    pub fn diverge(&mut self, paths: &[(u32, u32, u32)], rejoin: Rejoin) -> SimResult<()> {
        let top = self.top_mut();
        top.pc = match rejoin {
            Rejoin::At(pc) => pc,
            Rejoin::FunctionExit => AWAIT_RETURN,
            Rejoin::Never => unreachable!("a divergence always has a rejoin point"),
        };
        for &(pc, mask, calls) in paths.iter().rev() {
            if mask == 0 || (rejoin == Rejoin::At(pc) && calls == 0) {
                continue;
            }
            self.entries.push(Entry {
                pc,
                mask,
                rejoin,
                calls,
                return_to: None,
            });
        }
        self.reconverge()
    }

    /// Lanes leave the warp for good (TMC 0 on their path): drop them from every entry.
    pub fn retire(&mut self, lanes: u32) -> SimResult<()> {
        for e in &mut self.entries {
            e.mask &= !lanes;
        }
        self.reconverge()
    }

    /// Pop the paths that are done until the top one can execute.
    fn reconverge(&mut self) -> SimResult<()> {
        while let Some(top) = self.entries.last_mut() {
            let arrived = matches!(top.rejoin, Rejoin::At(pc) if pc == top.pc && top.calls == 0);
            if top.mask == 0 || arrived {
                self.entries.pop();
            } else if top.pc == AWAIT_RETURN {
                let Some(target) = top.return_to.take() else {
                    return Err(SimError::new(ErrorKind::Program(
                        "divergent paths ended without returning from their function".into(),
                    )));
                };
                self.return_top(target);
            } else {
                break;
            }
        }
        Ok(())
    }

    /// The entries, bottom first (for error reports and tests).
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stack(pc: u32, mask: u32) -> SimtStack {
        let mut s = SimtStack::default();
        s.start(pc, mask);
        s
    }

    #[test]
    fn if_else_reconverges_at_ipdom() {
        let mut s = stack(0x100, 0xF);
        // Branch at 0x100: lanes 0,1 fall through to 0x104, lanes 2,3 go to 0x200; join 0x300.
        s.diverge(&[(0x104, 0x3, 0), (0x200, 0xC, 0)], Rejoin::At(0x300))
            .unwrap();
        assert_eq!((s.pc(), s.mask()), (0x104, 0x3));
        s.jump(0x300).unwrap();
        assert_eq!((s.pc(), s.mask()), (0x200, 0xC));
        s.jump(0x300).unwrap();
        assert_eq!((s.pc(), s.mask(), s.depth()), (0x300, 0xF, 1));
    }

    #[test]
    fn path_at_rejoin_point_is_not_pushed() {
        let mut s = stack(0x100, 0xF);
        s.diverge(&[(0x104, 0x1, 0), (0x180, 0xE, 0)], Rejoin::At(0x180))
            .unwrap();
        assert_eq!((s.pc(), s.mask(), s.depth()), (0x104, 0x1, 2));
        s.jump(0x180).unwrap();
        assert_eq!((s.pc(), s.mask(), s.depth()), (0x180, 0xF, 1));
    }

    #[test]
    fn recursion_does_not_pop_at_rejoin_pc() {
        let mut s = stack(0x100, 0x3);
        s.diverge(&[(0x104, 0x1, 0), (0x200, 0x2, 0)], Rejoin::At(0x300))
            .unwrap();
        s.call(0x000).unwrap();
        s.jump(0x300).unwrap(); // the callee passes the same PC one level deeper
        assert_eq!((s.pc(), s.mask()), (0x300, 0x1));
        s.ret(0x108).unwrap();
        s.jump(0x300).unwrap();
        assert_eq!((s.pc(), s.mask()), (0x200, 0x2));
    }

    #[test]
    fn function_exit_rejoins_at_return_address() {
        let mut s = stack(0x100, 0x7);
        s.call(0x400).unwrap(); // bottom path calls f
        s.diverge(&[(0x404, 0x1, 0), (0x480, 0x6, 0)], Rejoin::FunctionExit)
            .unwrap();
        s.ret(0x104).unwrap(); // lane 0 returns from f (early return)
        assert_eq!((s.pc(), s.mask()), (0x480, 0x6));
        s.call(0x800).unwrap(); // a call inside the path: its return is not f's exit
        s.ret(0x484).unwrap();
        assert_eq!((s.pc(), s.mask()), (0x484, 0x6));
        s.ret(0x104).unwrap();
        assert_eq!((s.pc(), s.mask(), s.depth()), (0x104, 0x7, 1));
        assert_eq!(
            s.top().calls,
            0,
            "the joined return consumed the bottom path's call"
        );
    }

    #[test]
    fn retired_lanes_leave_every_entry() {
        let mut s = stack(0x100, 0xF);
        s.diverge(&[(0x104, 0x3, 0), (0x200, 0xC, 0)], Rejoin::At(0x300))
            .unwrap();
        s.retire(0x3).unwrap();
        assert_eq!((s.pc(), s.mask()), (0x200, 0xC));
        s.jump(0x300).unwrap();
        assert_eq!((s.pc(), s.mask()), (0x300, 0xC));
        s.retire(0xC).unwrap();
        assert!(s.is_empty());
    }
}
