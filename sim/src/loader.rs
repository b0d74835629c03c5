//! placeholder: ELF loader (being written)
