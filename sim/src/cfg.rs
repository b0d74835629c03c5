//! placeholder: control-flow graph and post-dominators (being written)
