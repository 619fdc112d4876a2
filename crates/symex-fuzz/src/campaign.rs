//! SAGE's work list shared beyond one process (a campaign of `symex fuzz` processes): what the
//! generational search needs from it. The lecture's note on parallel SAGE: only the work list and the
//! block coverage need sharing. A process takes an item (claimed with its name, so that a killed
//! process's item goes to another), expands it on its own, and ends it in one step with everything the
//! expansion produced: the children with their scores, the inputs it ran, the blocks and crashes that
//! were new. An item ended by another process meanwhile (this one was too slow to give a sign of life)
//! is not ended twice: its results are dropped. `symex-campaign` implements it over Redis.

/// An item taken from the shared work list.
#[derive(Clone, Debug)]
pub struct Taken {
    /// The item's number in the campaign.
    pub id: u64,
    pub bytes: Vec<u8>,
    /// The expansion's bound (the first conjunct it may negate).
    pub bound: usize,
    /// Whether the input was run (a child); a seed is run by the process that takes it.
    pub run: bool,
    /// The campaign's block coverage when the item was taken: the children's scores count the
    /// blocks new to the campaign, not to this process.
    pub covered: Vec<(u32, u32)>,
}

/// A child of the expansion, for the shared work list.
#[derive(Clone, Debug)]
pub struct Child {
    pub bytes: Vec<u8>,
    pub bound: usize,
    /// SAGE's `Score`: blocks it covered first.
    pub score: usize,
}

/// A crash found under the item: its key (kind, location, call stack) makes it distinct.
#[derive(Clone, Debug)]
pub struct CrashRecord {
    pub key: String,
    /// Kind, location and message, for `symex campaign collect`.
    pub what: String,
    pub bytes: Vec<u8>,
}

/// What expanding one item produced.
#[derive(Clone, Debug, Default)]
pub struct Finished {
    pub children: Vec<Child>,
    /// Every input run under the item (children, mutants, the seed), in order.
    pub runs: Vec<Vec<u8>>,
    /// Blocks first covered under the item (as far as this process knew).
    pub blocks: Vec<(u32, u32)>,
    pub crashes: Vec<CrashRecord>,
}

/// The shared work list of a campaign.
pub trait SharedWorkList: Send + Sync {
    /// The best item (the highest score, the oldest of that score; an item whose process went silent
    /// first); waits while others hold items that may add children. `None`: the campaign is over, or
    /// this process cannot reach it any more.
    fn take(&self) -> Option<Taken>;
    /// Ends item `id` with what its expansion produced: the numbers the children got (`None` for a
    /// child the campaign ran before), or `None` when the item is no longer this process's.
    fn commit(&self, id: u64, done: &Finished) -> Option<Vec<Option<u64>>>;
    /// Gives item `id` back unexpanded (this process reached its own limit).
    fn release(&self, id: u64);
    /// A sign of life while expanding (cheap: it talks to the campaign a few times a second).
    fn beat(&self);
}
