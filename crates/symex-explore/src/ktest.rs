//! KLEE's `.ktest` format (what `ktest-tool` reads): magic `KTEST`, version 3, the program arguments, and
//! the symbolic objects as (name, bytes); every integer a big-endian `u32`.

use symex_engine::TestInput;

/// The `.ktest` bytes of a test with `args` as the program's arguments.
pub fn encode(args: &[String], inputs: &[TestInput]) -> Vec<u8> {
    let mut out = Vec::new();
    let u32be = |out: &mut Vec<u8>, v: usize| out.extend_from_slice(&(v as u32).to_be_bytes());
    out.extend_from_slice(b"KTEST");
    u32be(&mut out, 3);
    u32be(&mut out, args.len());
    for a in args {
        u32be(&mut out, a.len());
        out.extend_from_slice(a.as_bytes());
    }
    u32be(&mut out, 0); // sym_argvs
    u32be(&mut out, 0); // sym_argv_len
    u32be(&mut out, inputs.len());
    for i in inputs {
        u32be(&mut out, i.name.len());
        out.extend_from_slice(i.name.as_bytes());
        u32be(&mut out, i.bytes.len());
        out.extend_from_slice(&i.bytes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_klee() {
        let t = encode(
            &["prog".into()],
            &[TestInput {
                name: "a".into(),
                bytes: vec![1, 2],
            }],
        );
        let mut want = b"KTEST".to_vec();
        for v in [3u32, 1, 4] {
            want.extend_from_slice(&v.to_be_bytes());
        }
        want.extend_from_slice(b"prog");
        for v in [0u32, 0, 1, 1] {
            want.extend_from_slice(&v.to_be_bytes());
        }
        want.push(b'a');
        want.extend_from_slice(&2u32.to_be_bytes());
        want.extend_from_slice(&[1, 2]);
        assert_eq!(t, want);
    }
}
