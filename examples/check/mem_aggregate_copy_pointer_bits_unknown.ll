; unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). A union holding a heap
; pointer is copied by one aggregate `load` and `store` (as clang emits for a union passed or returned by
; value once optimised), and its integer member then reads the pointer's bytes: a heap block's address is
; never a multiple of 2^40 on x86-64 Linux, and reach_error is called (clang-14 on this file, with and
; without -fsanitize=address,undefined). symex used to store the copied bytes with no provenance and read
; its own synthetic address (`id << 40`, low bits zero) unmarked: a wrong TRUE. The aggregate copy now
; carries the bytes' provenance, so the integer is an observed address and a decision on it is UNKNOWN.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%union.U = type { [2 x i64] }

declare i8* @malloc(i64)
declare void @free(i8*)
declare void @reach_error()

define i32 @main() {
  %a = alloca %union.U, align 8
  %b = alloca %union.U, align 8
  %p = call i8* @malloc(i64 16)
  %ap = bitcast %union.U* %a to i8**
  store i8* %p, i8** %ap, align 8
  %ah = getelementptr inbounds %union.U, %union.U* %a, i64 0, i32 0, i64 1
  store i64 0, i64* %ah, align 8
  %v = load %union.U, %union.U* %a, align 8
  store %union.U %v, %union.U* %b, align 8
  %bu = bitcast %union.U* %b to i64*
  %u = load i64, i64* %bu, align 8
  %low = and i64 %u, 1099511627775
  %set = icmp ne i64 %low, 0
  br i1 %set, label %error, label %done

error:
  call void @reach_error()
  br label %done

done:
  call void @free(i8* %p)
  ret i32 0
}
