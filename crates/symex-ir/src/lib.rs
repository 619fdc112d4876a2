//! Lowers clang-14 LLVM IR into symex's compact IR.
