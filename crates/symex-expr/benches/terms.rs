//! The cost of building terms: a hash-consing hit (the term exists), a miss (a new node),
//! evaluation, and the threads' contention on the global table.
//!
//! Run: `cargo bench -p symex-expr --bench terms`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use symex_expr::{Model, Sort, Term, Value};

/// The shape a symbolic executor builds when it loads a little-endian word from symbolic
/// bytes and compares it: 3 concats, an add, a compare.
fn word_compare(bytes: &[Term], k: u128) -> Term {
    let w = bytes[3]
        .concat(&bytes[2])
        .concat(&bytes[1])
        .concat(&bytes[0]);
    w.bvadd(&Term::bv(k, 32)).bvult(&Term::bv(1000, 32))
}

fn bench(c: &mut Criterion) {
    let bytes: Vec<Term> = (0..4)
        .map(|i| Term::var(&format!("b{i}"), Sort::bv(8)))
        .collect();
    let mut g = c.benchmark_group("terms");
    // Each iteration builds 5 operator nodes and 2 constants (7 constructor calls).
    g.throughput(Throughput::Elements(7));
    let existing = word_compare(&bytes, 17);
    g.bench_function("build-existing", |b| {
        b.iter(|| {
            let t = word_compare(&bytes, 17);
            assert_eq!(t, existing);
            t
        })
    });
    let mut k = 0u128;
    g.bench_function("build-new", |b| {
        b.iter(|| {
            k += 1;
            word_compare(&bytes, k << 40 | 0x1234_5678)
        })
    });
    g.throughput(Throughput::Elements(1));
    let mut m = Model::new();
    for (i, b) in bytes.iter().enumerate() {
        m.insert(
            b,
            Value::Bv {
                value: i as u128 * 37,
                width: 8,
            },
        );
    }
    g.bench_function("eval-word-compare", |b| {
        b.iter(|| m.eval_bool(&existing).unwrap())
    });
    g.throughput(Throughput::Elements(2 * 7 * 1000));
    g.bench_function("build-new-2-threads", |b| {
        b.iter(|| {
            std::thread::scope(|s| {
                for t in 0..2u128 {
                    let bytes = &bytes;
                    s.spawn(move || {
                        for i in 0..1000u128 {
                            word_compare(bytes, (t << 100) | (i << 60) | 0x99);
                        }
                    });
                }
            })
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
