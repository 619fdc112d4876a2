//! A campaign's work list over a real `redis-server` (skipped with a message where it is not
//! installed): the states a worker gives travel as one batch, the campaign's coverage is read back by
//! the worker that takes them, and a batch whose worker went silent is claimed whole by another.

use rustc_hash::FxHashSet;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use symex_campaign::{status, Worker};
use symex_explore::parallel::{WorkItem, WorkList};

struct Redis {
    child: Child,
    port: u16,
}

impl Redis {
    fn start() -> Option<Redis> {
        let found = Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            eprintln!(
                "skipped: redis-server is not installed (scripts/ensure-deps.sh installs it)"
            );
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        let r = Redis { child, port };
        for _ in 0..200 {
            if redis::Client::open(r.url())
                .and_then(|c| c.get_connection())
                .is_ok()
            {
                return Some(r);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("redis-server did not start on port {port}");
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn item(sig: &str) -> WorkItem {
    WorkItem {
        sig: sig.parse().unwrap(),
        steps: 7,
        depth: 1,
        new_coverage: true,
        since_new_coverage: 0,
    }
}

fn sig(i: Option<WorkItem>) -> String {
    i.expect("an item").sig.to_string()
}

const CLAIM: Duration = Duration::from_secs(600);

#[test]
fn given_states_travel_as_one_batch_with_the_campaigns_coverage() {
    let Some(server) = Redis::start() else { return };
    let a = Worker::join(&server.url(), "batch", "p", 1, CLAIM).unwrap();
    let mut covered_a = FxHashSet::default();
    assert_eq!(sig(a.take(&mut covered_a)), "0:");
    covered_a.extend([(0, 1), (0, 2)]);
    // No worker waits: the three states go back as one item, with the blocks A covered.
    a.give(vec![item("0:1"), item("0:01"), item("0:00")], &covered_a);

    let b = Worker::join(&server.url(), "batch", "p", 1, CLAIM).unwrap();
    let mut covered_b = FxHashSet::from_iter([(1, 0)]);
    assert_eq!(sig(b.take(&mut covered_b)), "0:1");
    // B counts new coverage against the campaign's: A's blocks are read back with the item.
    assert_eq!(
        covered_b,
        FxHashSet::from_iter([(0, 1), (0, 2), (1, 0)]),
        "the campaign's coverage read back"
    );
    // The item's other states come from the same item, without going to the server.
    assert_eq!(sig(b.take(&mut covered_b)), "0:01");
    assert_eq!(sig(b.take(&mut covered_b)), "0:00");
    assert!(b.take(&mut covered_b).is_none(), "nothing in flight");
    let s = status(&server.url(), "batch").unwrap();
    assert_eq!((s.items_done, s.in_flight), (2, 0));
    assert_eq!(s.blocks_covered, 3);
}

#[test]
fn a_silent_workers_batch_is_claimed_whole_by_another() {
    let Some(server) = Redis::start() else { return };
    let a = Worker::join(&server.url(), "claim", "p", 1, CLAIM).unwrap();
    let mut covered = FxHashSet::default();
    assert_eq!(sig(a.take(&mut covered)), "0:");
    a.give(vec![item("0:1"), item("0:0")], &covered);
    let b = Worker::join(&server.url(), "claim", "p", 1, CLAIM).unwrap();
    assert_eq!(sig(b.take(&mut covered)), "0:1");
    // B stops answering with the batch's second state unexplored; C claims what B held once it
    // was silent for C's claim time (1 ms, long past after the sleep).
    std::mem::forget(b);
    std::thread::sleep(Duration::from_millis(20));
    let c = Worker::join(&server.url(), "claim", "p", 1, Duration::from_millis(1)).unwrap();
    assert_eq!(sig(c.take(&mut covered)), "0:1");
    assert_eq!(sig(c.take(&mut covered)), "0:0");
    assert!(c.take(&mut covered).is_none(), "nothing in flight");
    assert_eq!(status(&server.url(), "claim").unwrap().in_flight, 0);
}
