//! The stack distance structure ([`RecencyStack`], module documentation
//! of `reuse.rs`), the distance it gives, and the intervals distances are
//! classified into.

/// Where the previous access to a line is in an LRU stack capped at `C`
/// lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// The first access to the line (`+inf`).
    First,
    /// Exactly `d < C` distinct other lines were accessed since.
    Within(u32),
    /// At least `C` distinct other lines were accessed since.
    Beyond,
}

/// A slot not holding the line (never held, or dropped at distance `>=
/// C`).
pub(super) const NO_SLOT: u32 = u32::MAX;
/// Fewest slots of a stack (one word of marks).
const MIN_SLOTS: usize = 64;

/// An LRU stack of line addresses giving exact distances below its cap
/// (module documentation): one mark bit per access slot, and a Fenwick
/// tree over the mark counts of the 64-slot words. The caller keeps each
/// line's slot and refreshes it when [`RecencyStack::compact`] moves
/// lines.
#[derive(Clone, Debug)]
pub struct RecencyStack {
    cap: u32,
    /// One bit per slot: the slot holds its line's latest access.
    bits: Vec<u64>,
    /// Fenwick tree of the words' mark counts, 1-based (`tree[0]`
    /// unused).
    tree: Vec<u32>,
    /// The line of each marked slot.
    line_at: Vec<u64>,
    /// The next free slot.
    next: u32,
    /// Marked slots (lines held).
    live: u32,
}

impl RecencyStack {
    /// An empty stack exact below `cap` lines.
    pub fn new(cap: u32) -> Self {
        RecencyStack {
            cap: cap.max(1),
            bits: vec![0; MIN_SLOTS / 64],
            tree: vec![0; MIN_SLOTS / 64 + 1],
            line_at: vec![0; MIN_SLOTS],
            next: 0,
            live: 0,
        }
    }

    /// No free slot is left: [`RecencyStack::compact`] before the next
    /// [`RecencyStack::touch`].
    #[inline]
    pub fn is_full(&self) -> bool {
        self.next as usize == self.line_at.len()
    }

    /// Slots allocated.
    pub fn slots(&self) -> usize {
        self.line_at.len()
    }

    /// Marks in slots `0..=slot`: the words before its own from the tree,
    /// then the bits of its word.
    #[inline]
    fn prefix(&self, slot: u32) -> u32 {
        let w = (slot / 64) as usize;
        let mut s = (self.bits[w] & (u64::MAX >> (63 - slot % 64))).count_ones();
        let mut i = w;
        while i > 0 {
            s += self.tree[i];
            i &= i - 1;
        }
        s
    }

    #[inline]
    fn mark(&mut self, slot: u32) {
        let w = (slot / 64) as usize;
        self.bits[w] |= 1 << (slot % 64);
        let mut i = w + 1;
        while i < self.tree.len() {
            self.tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }

    #[inline]
    fn unmark(&mut self, slot: u32) {
        let w = (slot / 64) as usize;
        self.bits[w] &= !(1 << (slot % 64));
        let mut i = w + 1;
        while i < self.tree.len() {
            self.tree[i] -= 1;
            i += i & i.wrapping_neg();
        }
    }

    /// An access to `line`, whose latest access holds `slot` (`None`: not
    /// held). Returns its exact distance when it was held (possibly `>=
    /// cap` until the next compaction drops it) and the slot now holding
    /// it. The stack must not be full.
    #[inline]
    pub fn touch(&mut self, line: u64, slot: Option<u32>) -> (Option<u32>, u32) {
        debug_assert!(!self.is_full());
        let d = match slot {
            // Already on top: distance 0, nothing moves.
            Some(s) if s + 1 == self.next => return (Some(0), s),
            Some(s) => {
                let d = self.live - self.prefix(s);
                self.unmark(s);
                self.live -= 1;
                Some(d)
            }
            None => None,
        };
        let s = self.next;
        self.next += 1;
        self.mark(s);
        self.line_at[s as usize] = line;
        self.live += 1;
        (d, s)
    }

    /// Renumbers the held lines in recency order from slot 0 and drops
    /// those at distance `>= cap`; `moved(line, Some(slot))` is called for
    /// each line kept, `moved(line, None)` for each dropped. The stack
    /// then has `2 x` the lines kept in slots (whole words, at least 64).
    pub fn compact(&mut self, mut moved: impl FnMut(u64, Option<u32>)) {
        let mut n = 0;
        for w in 0..self.bits.len() {
            let mut m = self.bits[w];
            while m != 0 {
                let slot = w * 64 + m.trailing_zeros() as usize;
                self.line_at[n] = self.line_at[slot];
                n += 1;
                m &= m - 1;
            }
        }
        let drop = n.saturating_sub(self.cap as usize);
        for &l in &self.line_at[..drop] {
            moved(l, None);
        }
        self.line_at.copy_within(drop..n, 0);
        let k = n - drop;
        let slots = (2 * k).next_multiple_of(64).max(MIN_SLOTS);
        self.line_at.resize(slots, 0);
        for (i, &l) in self.line_at[..k].iter().enumerate() {
            moved(l, Some(i as u32));
        }
        let words = slots / 64;
        self.bits.clear();
        self.bits.resize(words, 0);
        self.tree.clear();
        self.tree.resize(words + 1, 0);
        for w in 0..words {
            let ones = k.saturating_sub(w * 64).min(64);
            self.bits[w] = if ones == 64 {
                u64::MAX
            } else {
                (1 << ones) - 1
            };
            self.tree[w + 1] += ones as u32;
            // The Fenwick tree built in place: each node adds into its
            // parent.
            let parent = (w + 1) + ((w + 1) & (w + 1).wrapping_neg());
            if parent <= words {
                self.tree[parent] += self.tree[w + 1];
            }
        }
        self.next = k as u32;
        self.live = k as u32;
    }
}

/// The interval bounds of a fully associative cache of `cap` lines:
/// `cap/16, cap/8, cap/4, cap/2, cap` (for 128 lines the thesis's 8, 16,
/// 32, 64, 128).
pub fn bounds(cap: u32) -> [u32; 5] {
    [cap / 16, cap / 8, cap / 4, cap / 2, cap]
}

/// The interval (0-6) of a distance: 0-4 below `bounds[4]`, 5 beyond it,
/// 6 a first access.
#[inline]
pub fn interval(bounds: &[u32; 5], d: Distance) -> usize {
    match d {
        Distance::Within(d) => {
            (d >= bounds[0]) as usize
                + (d >= bounds[1]) as usize
                + (d >= bounds[2]) as usize
                + (d >= bounds[3]) as usize
        }
        Distance::Beyond => 5,
        Distance::First => 6,
    }
}

/// The seven intervals' names for `bounds`: `[0,8)`, ..., `[128,inf)`,
/// `inf`.
pub fn interval_names(bounds: &[u32; 5]) -> [String; 7] {
    let b = bounds;
    [
        format!("[0,{})", b[0]),
        format!("[{},{})", b[0], b[1]),
        format!("[{},{})", b[1], b[2]),
        format!("[{},{})", b[2], b[3]),
        format!("[{},{})", b[3], b[4]),
        format!("[{},inf)", b[4]),
        "inf".to_string(),
    ]
}
