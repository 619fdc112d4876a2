; unreach-call: the right verdict is FALSE, symex answers UNKNOWN (never TRUE). The bytes of a stored heap
; pointer are loaded as an aggregate of two integers (as clang emits for a union passed or returned by
; value), and `extractvalue` takes the first integer: it is the pointer's address, never a multiple of
; 2^40 on x86-64 Linux, and reach_error is called (clang-14 on this file, with and without
; -fsanitize=address,undefined). symex used to read its own synthetic address (`id << 40`, low bits zero)
; from the aggregate unmarked: a wrong TRUE. The aggregate now carries the provenance of the bytes it was
; loaded from, so the integer extracted from pointer bytes is an observed address and a decision on it is
; UNKNOWN.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i8* @malloc(i64)
declare void @free(i8*)
declare void @reach_error()

define i32 @main() {
  %a = alloca { i64, i64 }, align 8
  %p = call i8* @malloc(i64 16)
  %ap = bitcast { i64, i64 }* %a to i8**
  store i8* %p, i8** %ap, align 8
  %ah = getelementptr inbounds { i64, i64 }, { i64, i64 }* %a, i64 0, i32 1
  store i64 0, i64* %ah, align 8
  %v = load { i64, i64 }, { i64, i64 }* %a, align 8
  %u = extractvalue { i64, i64 } %v, 0
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
