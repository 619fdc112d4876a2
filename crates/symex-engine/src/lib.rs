//! States, memory, instruction semantics and libc models: the concrete interpreter and the symbolic executor.
