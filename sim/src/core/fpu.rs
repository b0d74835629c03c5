//! placeholder: IEEE single precision (being written)
