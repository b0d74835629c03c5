//! A program's arguments (`wsim run prog.elf -- ARG...`): the `wsim_args` block a program
//! declares with `WSIM_ARGS` (programs/runtime/wsim_args.h), filled before the run as C's
//! `main` would get them: `argc` (the program's name and the arguments), `argv` (the
//! block's own array of pointers, a null after the last) and the strings. A program
//! without the block runs as before; giving it arguments is an error.

use anyhow::{bail, ensure};
use wsim_sim::Machine;

/// The block's symbol.
pub const SYMBOL: &str = "wsim_args";
/// `WSIM_ARGS_MAX`: the most arguments, the program's name included.
pub const MAX: usize = 32;
/// `WSIM_ARGS_BYTES`: the strings' room, each with its terminating NUL.
pub const BYTES: usize = 1024;
/// `argc`, `argv`, `pointers[MAX + 1]`, `text[BYTES]`, as wsim_args.h lays them out.
const POINTERS: u32 = 8;
const TEXT: u32 = POINTERS + 4 * (MAX as u32 + 1);
const SIZE: u32 = TEXT + BYTES as u32;

/// Fill the block of the program in `machine` with `name` (`argv[0]`) and `args`.
pub fn place(machine: &mut Machine, name: &str, args: &[String]) -> anyhow::Result<()> {
    let Some(symbol) = machine.symbol(SYMBOL) else {
        ensure!(
            args.is_empty(),
            "the program takes no arguments: it declares no `{SYMBOL}` block (WSIM_ARGS in \
             programs/runtime/wsim_args.h)"
        );
        return Ok(());
    };
    let at = symbol.addr;
    if symbol.size != SIZE || at % 4 != 0 {
        bail!(
            "{SYMBOL} at {at:#x} has {} bytes; the block of wsim_args.h has {SIZE}, word-aligned",
            symbol.size
        );
    }
    let all: Vec<&str> = std::iter::once(name)
        .chain(args.iter().map(String::as_str))
        .collect();
    ensure!(
        all.len() <= MAX,
        "{} arguments: a program takes at most {} (WSIM_ARGS_MAX, with its name)",
        args.len(),
        MAX - 1
    );
    let mut text = Vec::new();
    let mut pointers = Vec::with_capacity(MAX + 1);
    for arg in &all {
        ensure!(!arg.contains('\0'), "argument {arg:?} holds a NUL byte");
        pointers.push(at + TEXT + text.len() as u32);
        text.extend_from_slice(arg.as_bytes());
        text.push(0);
    }
    pointers.push(0);
    ensure!(
        text.len() <= BYTES,
        "the arguments take {} bytes with their NULs (the program's name `{name}` included): \
         the block holds {BYTES} (WSIM_ARGS_BYTES)",
        text.len()
    );
    machine.write_words(at, &[all.len() as u32, at + POINTERS]);
    machine.write_words(at + POINTERS, &pointers);
    machine.write_bytes(at + TEXT, &text);
    Ok(())
}
