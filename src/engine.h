/*
** engine.h -- the search engine as inline code: the indexed heap, the
** relaxation that owns the rules of A* (reopening, heuristics, the open
** list, budgets), and the search loop.  Each topology (graph.c; the grid
** shapes through lattice.h) includes this file and instantiates
** search_loop with its own expansion functions, so the loop, the expansion and relax() compile into one
** function per topology and mode, with no call per neighbour and no
** topology branch per expansion.
**
** Node state lives in pages (astar_int.h) indexed by internal node id, or
** in jump point searches in the node's entry of a table of the touched
** nodes (see state_k), and is valid only when its stamp equals the
** search's generation, so a query never clears memory it did not touch.
** The open list is a binary heap that records each node's position for
** O(log n) decrease-key and reopening (or, for the precomputed mode on
** maps of long runs, a lazy heap without positions: HEAP_LAZY).
** stop = "optimal" keeps a second heap of the open nodes keyed by g (only in
** that mode), so "is any open node cheaper than the goal?" is a look at its
** top.
**
** Successor bypass: the best node an expansion opens is held in a one-node
** slot instead of the heap, and expanded next when its key is no worse than
** the heap's top (on open terrain it usually is: f stays constant toward the
** goal and high_g prefers the newest node).  The keys compared are the
** heap's own, so the expansion order is the heap's; it saves a push that
** would climb to the root and the pop that would bring it back.  When the
** heap's top wins, the slot's node takes the top's place and sinks (one
** descent, not a pop's and a push's climb).  Items of equal f and equal
** tie key (high_g: equal h) come out in an order the heap's shape decides;
** the rules say nothing of it.
**
** Step costs are the topology's business (its expansion computes them and
** applies the query's filter -- tag factors, penalty and forbid fields,
** filter.h -- through query_step below); relax() owns what happens once a
** cost is known.
**
** Longjmp safety: callbacks run only inside relax() and the step helpers;
** every buffer they can interrupt is owned by the astar_search, and nothing
** the next begin relies on is left half-written (the generation bump
** invalidates the rest).
*/
#ifndef ASTAR_ENGINE_H
#define ASTAR_ENGINE_H

#include <float.h>
#include <math.h>
#include <string.h>

#include "astar_int.h"
#include "filter.h"

ASTAR_INTERNAL_BEGIN /* hidden, see astar_int.h */

    /* astar_node.pos when not in the heap: closed (or new), or in the bypass slot. */
    enum { POS_CLOSED = -1,
           POS_NEXT = -2 };

/* A closed node is reopened only for an improvement larger than this
** relative amount.  Without it, two routes of equal length whose float sums
** differ in the last bit (1 + sqrt2 + 1 vs 1 + 1 + sqrt2) reopen nodes on
** open grids for nothing; real improvements are never this small. */
#define REOPEN_EPS 1e-12

/* ------------------------------------------------------------------------ */
/* per-node state (pages and the slot table: see astar_int.h)                 */
/* ------------------------------------------------------------------------ */

/*
** The state of a node is at a state index k.  Dense state (every search but
** jump point search): k is the internal node id, pages cover the regions
** of the topology the search reached.  Sparse state (jump point search, a
** query touching few nodes far apart): k is the index of the node's entry
** in an open-addressing table of the touched nodes (s->slots), and the
** entry holds the state itself (g, stamp, heap position, parent), so a
** probe that finds the node has found its state.
**
** A translation unit says which state its loops keep by defining
** ASTAR_ENGINE_SPARSE before including this file (jps.h does, for jps.c
** and jpsplus.c; every other file keeps dense state): node_at, parent_at,
** node_seen, hc_at, cc_at, node_prefetch, relax_impl and search_loop take
** internal node ids in both, the heap holds state indices, and node_k and
** its kin read the state at an index.  search.c, which serves both kinds
** of search, defines ASTAR_SPARSE_OF(s) as s->sparse: its copies ask the
** search at run time.
*/
#ifndef ASTAR_ENGINE_SPARSE
#define ASTAR_ENGINE_SPARSE 0
#endif
#ifndef ASTAR_SPARSE_OF
#define ASTAR_SPARSE_OF(s) ASTAR_ENGINE_SPARSE
#endif

/* Allocates the page (and, when the query keeps extras, the extra page) of
** node v where they are missing (dense state); search.c.  ENOMEM leaves
** the directory as it was. */
int astar__touch_page(astar_search *s, int32_t v);
/* Grows the slot table (twice the entries, this query's moved and every
** state index the search holds renamed; the extras with it); search.c.
** ENOMEM leaves everything as it was. */
int astar__slot_grow(astar_search *s);

/* The state at index k, whose page (dense) or entry (sparse) this search
** made; sparse: this translation unit's kind of state (constant but in
** search.c). */
ASTAR_INLINE astar_node *state_k(const astar_search *s, int32_t k, int sparse) {
  if (sparse) return &s->slots[k].n;
  return (astar_node *)(s->nsb[k >> ASTAR_PAGE_BITS] + (uintptr_t)k * sizeof(astar_node));
}

ASTAR_INLINE int32_t *state_parent(const astar_search *s, int32_t k, int sparse) {
  if (sparse) return &s->slots[k].parent;
  return &s->pages[k >> ASTAR_PAGE_BITS]->parent[k & ASTAR_PAGE_MASK];
}

ASTAR_INLINE astar_node *node_k(const astar_search *s, int32_t k) {
  return state_k(s, k, ASTAR_SPARSE_OF(s));
}

ASTAR_INLINE int32_t *parent_k(const astar_search *s, int32_t k) {
  return state_parent(s, k, ASTAR_SPARSE_OF(s));
}

ASTAR_INLINE astar_xpage *xpage_k(const astar_search *s, int32_t k) {
  return s->xpages[k >> ASTAR_PAGE_BITS];
}

ASTAR_INLINE double *hc_k(const astar_search *s, int32_t k) {
  if (ASTAR_SPARSE_OF(s)) return &s->slotx[k].hc;
  return &xpage_k(s, k)->hc[k & ASTAR_PAGE_MASK];
}

ASTAR_INLINE double *cc_k(const astar_search *s, int32_t k) {
  if (ASTAR_SPARSE_OF(s)) return &s->slotx[k].cc;
  return &xpage_k(s, k)->cc[k & ASTAR_PAGE_MASK];
}

ASTAR_INLINE int32_t *gpos_k(const astar_search *s, int32_t k) {
  if (ASTAR_SPARSE_OF(s)) return &s->slotx[k].gpos;
  return &xpage_k(s, k)->gpos[k & ASTAR_PAGE_MASK];
}

/* The page of node v, allocated on first touch (the only place a dense
** search meets a page it may never have had); NULL: out of memory.  plain:
** the fast path's instantiation, which never keeps extras. */
ASTAR_INLINE astar_page *page_touch(astar_search *s, int32_t v, int plain) {
  astar_page *p = s->pages[v >> ASTAR_PAGE_BITS];
  if (ASTAR_UNLIKELY(p == NULL || (!plain && s->use_x &&
                                   s->xpages[v >> ASTAR_PAGE_BITS] == NULL))) {
    if (astar__touch_page(s, v) != ASTAR_OK) return NULL;
    p = s->pages[v >> ASTAR_PAGE_BITS];
  }
  return p;
}

/* The first entry of node v's probe sequence in the slot table (Fibonacci
** hashing: the product's top bits). */
ASTAR_INLINE size_t slot_home(const astar_search *s, int32_t v) {
  return (size_t)(((uint32_t)v * 2654435769u) >> s->slot_shift);
}

/* The entry of node v in the slot table when this query touched v (*fresh
** 0); otherwise the empty entry where v would go (*fresh 1; an entry of an
** older query, its stamp not the generation, is empty: a begin clears
** nothing), probed from entry i, v's home (slot_home).  The table is at
** most half full, so a probe ends.  The two exits set *fresh to constants,
** so a caller's test of it is the exit's own branch. */
ASTAR_INLINE size_t slot_probe_at(const astar_search *s, int32_t v, size_t i, int *fresh) {
  const astar_slot *t = s->slots;
  uint32_t gen = s->gen;
  for (;;) {
    if (t[i].n.stamp != gen) {
      *fresh = 1;
      return i;
    }
    if (t[i].node == v) {
      *fresh = 0;
      return i;
    }
    i = (i + 1) & s->slot_mask;
  }
}

/* slot_probe_at without the flag. */
ASTAR_INLINE size_t slot_probe_from(const astar_search *s, int32_t v, size_t i) {
  int fresh;
  return slot_probe_at(s, v, i, &fresh);
}

/* slot_probe_from v's home. */
ASTAR_INLINE size_t slot_probe(const astar_search *s, int32_t v) {
  return slot_probe_from(s, v, slot_home(s, v));
}

/* The state index (entry) of node v in this query's sparse state; -1 when
** it has none. */
ASTAR_INLINE int32_t slot_find(const astar_search *s, int32_t v) {
  size_t i;
  if (s->slots_cap == 0) return -1;
  i = slot_probe(s, v);
  return s->slots[i].n.stamp == s->gen ? (int32_t)i : -1;
}

/* The internal node id at state index k. */
ASTAR_INLINE int32_t node_of(const astar_search *s, int32_t k, int sparse) {
  return sparse ? s->slots[k].node : k;
}

/* The state index of internal node v, which this search touched (sparse:
** the node being expanded, which the loop names, without a probe). */
ASTAR_INLINE int32_t state_of(const astar_search *s, int32_t v, int sparse) {
  if (!sparse) return v;
  return v == s->cur_node ? s->cur_k : slot_find(s, v);
}

/* v has state in this search (touched, and its stamp is current). */
ASTAR_INLINE int node_seen_in(const astar_search *s, int32_t v, int sparse) {
  astar_page *p;
  if (sparse) return v >= 0 && slot_find(s, v) >= 0;
  if (v < 0 || (size_t)(v >> ASTAR_PAGE_BITS) >= s->pages_cap) return 0;
  p = s->pages[v >> ASTAR_PAGE_BITS];
  return p != NULL && p->ns[v & ASTAR_PAGE_MASK].stamp == s->gen;
}

/* The node-id accessors of this translation unit's kind of state: v was
** touched by this search (node_seen: whether it was). */
ASTAR_INLINE astar_node *node_at(const astar_search *s, int32_t v) {
  return node_k(s, state_of(s, v, ASTAR_SPARSE_OF(s)));
}

ASTAR_INLINE int32_t *parent_at(const astar_search *s, int32_t v) {
  return parent_k(s, state_of(s, v, ASTAR_SPARSE_OF(s)));
}

ASTAR_INLINE double *hc_at(const astar_search *s, int32_t v) {
  return hc_k(s, state_of(s, v, ASTAR_SPARSE_OF(s)));
}

ASTAR_INLINE double *cc_at(const astar_search *s, int32_t v) {
  return cc_k(s, state_of(s, v, ASTAR_SPARSE_OF(s)));
}

ASTAR_INLINE int node_seen(const astar_search *s, int32_t v) {
  return node_seen_in(s, v, ASTAR_SPARSE_OF(s));
}

/* Prefetches the state of node v (which the search may not have touched)
** for a write soon: the page's line where v's page exists, or the first
** entry of v's probe in the slot table (where it mostly is, or goes). */
ASTAR_INLINE void node_prefetch(const astar_search *s, int32_t v) {
#if !ASTAR_ENGINE_SPARSE
  if (s->pages[v >> ASTAR_PAGE_BITS] != NULL) ASTAR_PREFETCH(node_k(s, v));
#else
  ASTAR_PREFETCH(&s->slots[slot_home(s, v)]);
#endif
}
/* ------------------------------------------------------------------------ */
/* indexed binary heap                                                        */
/* ------------------------------------------------------------------------ */

ASTAR_INLINE int item_less(const astar_heap_item *a, const astar_heap_item *b) {
  return a->fkey < b->fkey || (a->fkey == b->fkey && a->k < b->k);
}

/* item_less as flags and no branch: the heap's descent, where the smaller
** child is a coin toss that no predictor learns on a query's first run.
** a's tie key below b's adds one to b's f key: (f, k) compared in one
** carry.  b's f key + 1 cannot wrap: an f key is at most infinity's bits
** (f >= 0 and never NaN), and heap_pop's sentinel is HEAP_FKEY_MAX. */
#define HEAP_FKEY_MAX (UINT64_MAX - 1)
ASTAR_INLINE int item_less_nb(const astar_heap_item *a, const astar_heap_item *b) {
  return a->fkey < b->fkey + (uint64_t)(a->k < b->k);
}

/* f <-> heap key (see astar_heap_item). */
ASTAR_INLINE uint64_t fkey(double f) {
  uint64_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

ASTAR_INLINE double key_f(uint64_t u) {
  double f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* `which` selects the heap and how it keeps positions, constant at each
** call site, so the compiler folds it: HEAP_OPEN, the open list with each
** node's position in its state (decrease-key in place); HEAP_BYG, the by-g
** heap, positions in gpos; HEAP_LAZY, the open list of sparse state (jump
** point searches), without positions.  A lazy heap never moves or removes
** an item but its top: a cheaper offer to an open node pushes a new item,
** and the old one, stale, is dropped when it reaches the top (heap_stale).
** So its pops write nothing into node state (a write per level into a
** different node's line, for the indexed heap), and the node's pos says
** only POS_OPEN (some item of it is in the heap), POS_NEXT or POS_CLOSED.
** The heaps hold state indices (see node_k). */
enum { HEAP_OPEN = 0,
       HEAP_BYG = 1,
       HEAP_LAZY = 2 };
#define POS_OPEN (-4) /* lazy heap: the node has an item in it */
#define HPOS(s, node, which) (*((which) == HEAP_BYG ? gpos_k(s, node) : &node_k(s, node)->pos))
#define HPOS_SET(s, node, which, i) \
  do { \
    if ((which) != HEAP_LAZY) HPOS(s, node, which) = (int32_t)(i); \
  } while (0)

/* Puts item it at i, a hole, or where it rises to from there. */
ASTAR_INLINE void heap_rise(astar_search *s, astar_heap *h, size_t i, astar_heap_item it,
                            int which) {
  while (i > 0) {
    size_t p = (i - 1) >> 1;
    if (!item_less(&it, &h->a[p])) break;
    h->a[i] = h->a[p];
    HPOS_SET(s, h->a[i].node, which, i);
    i = p;
  }
  h->a[i] = it;
  HPOS_SET(s, it.node, which, i);
}

ASTAR_INLINE void heap_up(astar_search *s, astar_heap *h, size_t i, int which) {
  heap_rise(s, h, i, h->a[i], which);
}

/* Puts item it at i, a hole, or where it sinks to from there. */
ASTAR_INLINE void heap_sink(astar_search *s, astar_heap *h, size_t i, astar_heap_item it,
                            int which) {
  size_t n = h->n;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    /* the smaller child by arithmetic, as in heap_pop: from the root (the
    ** loop's sinking slot) it is a coin toss a branch would miss */
    if (c + 1 < n) c += (size_t)item_less_nb(&h->a[c + 1], &h->a[c]);
    if (!item_less(&h->a[c], &it)) break;
    h->a[i] = h->a[c];
    HPOS_SET(s, h->a[i].node, which, i);
    i = c;
  }
  h->a[i] = it;
  HPOS_SET(s, it.node, which, i);
}

ASTAR_INLINE void heap_down(astar_search *s, astar_heap *h, size_t i, int which) {
  heap_sink(s, h, i, h->a[i], which);
}

/* Removes the top: the hole descends to a leaf along the smaller children
** (one compare per level), then the last item rises from there; it came
** from the bottom, so it seldom rises far (Floyd's bottom-up variant). */
ASTAR_INLINE void heap_pop(astar_search *s, astar_heap *h, int which) {
  size_t i = 0, n = --h->n;
  astar_heap_item last = h->a[n];
  if (n == 0) return;
  {
    /* the smaller child is chosen by arithmetic (on a query's first run
    ** which one is smaller is a coin toss that no predictor has learnt),
    ** two levels a step: the child's and both grandchild pairs' compares
    ** at once, so the chain of loads waits on one compare per two levels.
    ** a[n] (last's old place, free now) holds a key above every other, so
    ** a lone child's missing sibling never wins. */
    astar_heap_item *a = h->a;
    a[n].fkey = HEAP_FKEY_MAX;
    a[n].k = UINT32_MAX;
    while (4 * i + 6 <= n) { /* every grandchild there (a[n] included) */
      size_t c = 2 * i + 1, g = 4 * i + 3, lc, l0, l1;
      lc = (size_t)item_less_nb(&a[c + 1], &a[c]);
      l0 = (size_t)item_less_nb(&a[g + 1], &a[g]);
      l1 = (size_t)item_less_nb(&a[g + 3], &a[g + 2]);
      c += lc;
      g += (2 + l1) & (0 - lc); /* lc: c + 1's children, g + 2 on */
      g += l0 & (lc - 1);
      a[i] = a[c];
      HPOS_SET(s, a[i].node, which, i);
      a[c] = a[g];
      HPOS_SET(s, a[c].node, which, c);
      i = g;
    }
    for (;;) {
      size_t c = 2 * i + 1;
      if (c >= n) break;
      c += (size_t)item_less_nb(&a[c + 1], &a[c]);
      a[i] = a[c];
      HPOS_SET(s, a[i].node, which, i);
      i = c;
    }
  }
  h->a[i] = last;
  heap_up(s, h, i, which);
}

/* Room for one more item (out of line: seldom, and it keeps the inlined
** pushes short). */
static int heap_grow(astar_search *s, astar_heap *h) {
  return astar__grow(s->alloc, s->ud, (void **)&h->a, &h->cap, h->n + 1,
                     sizeof(astar_heap_item));
}

/* heap_push inlined: the open list's pushes in relax_in and the loop (a
** call each cost about a fifth of a push, spills included). */
ASTAR_INLINE int heap_push_in(astar_search *s, astar_heap *h, int32_t node, double f,
                              uint32_t k, int which) {
  astar_heap_item it;
  if (ASTAR_UNLIKELY(h->n == h->cap) && heap_grow(s, h)) return ASTAR_ENOMEM;
  it.fkey = fkey(f);
  it.k = k;
  it.node = node;
  heap_rise(s, h, h->n++, it, which); /* the item from registers, not the array */
  if (which == HEAP_LAZY) node_k(s, node)->pos = POS_OPEN;
  return ASTAR_OK;
}

static int heap_push(astar_search *s, astar_heap *h, int32_t node, double f,
                     uint32_t k, int which) {
  return heap_push_in(s, h, node, f, k, which);
}

/* Turns the lazy open list into an indexed one (HEAP_OPEN), in place: one
** item per open node, its least, with its position.  The precomputed
** mode's query handing its open list to JPS's loops (jpsplus.c). */
ASTAR_INLINE void heap_index(astar_search *s) {
  astar_heap *h = &s->open;
  size_t i, n = 0;
  for (i = 0; i < h->n; i++) {
    astar_node *nd = node_k(s, h->a[i].node);
    /* the node's first item; a cheaper item of it; else stale: dropped */
    if (nd->pos == POS_OPEN) {
      nd->pos = (int32_t)n;
      h->a[n++] = h->a[i];
    } else if (nd->pos >= 0 && item_less(&h->a[i], &h->a[nd->pos])) {
      h->a[nd->pos] = h->a[i];
    }
  }
  h->n = n;
  for (i = n / 2; i-- > 0;) heap_down(s, h, i, HEAP_OPEN);
}

/* The lazy heap's top is stale: its node was closed (expanded at a better
** item), or moved to the bypass slot, since the item was pushed.  A node
** whose pos is POS_OPEN may have several items; any of them is the first
** one popped only when its key is the node's least (g only falls, h is the
** node's own), and the expansion reads g and the parent from the node's
** state, not the item, so it is the same expansion. */
ASTAR_INLINE int heap_stale(const astar_search *s) {
  return node_k(s, s->open.a[0].node)->pos != POS_OPEN;
}

/* Changes the key of the item at i, in either direction. */
ASTAR_INLINE void heap_update(astar_search *s, astar_heap *h, size_t i, double f,
                              uint32_t k, int which) {
  int32_t node = h->a[i].node;
  h->a[i].fkey = fkey(f);
  h->a[i].k = k;
  heap_up(s, h, i, which);
  heap_down(s, h, (size_t)HPOS(s, node, which), which);
}

static void heap_remove(astar_search *s, astar_heap *h, size_t i, int which) {
  int32_t gone = h->a[i].node;
  h->n--;
  if (i < h->n) {
    int32_t moved = h->a[h->n].node;
    h->a[i] = h->a[h->n];
    heap_up(s, h, i, which);
    heap_down(s, h, (size_t)HPOS(s, moved, which), which);
  }
  HPOS(s, gone, which) = -1;
}

/* ------------------------------------------------------------------------ */
/* heuristics                                                                 */
/* ------------------------------------------------------------------------ */

/* Built-in estimate from position (x, y, z) to the goal.  Values that
** overflow (coordinates near DBL_MAX) are clamped so no NaN reaches f.  The
** topology passes z = 0 when it has none, and the compiler drops it. */
ASTAR_INLINE double builtin_h(const astar_search *s, double x, double y,
                              double z) {
  double dx = fabs(x - s->gx), dy = fabs(y - s->gy), dz = fabs(z - s->gz), h;
  switch (s->q.heuristic) {
    case ASTAR_H_ZERO: return 0.0;
    case ASTAR_H_EUCLIDEAN: h = sqrt(dx * dx + dy * dy + dz * dz); break;
    case ASTAR_H_MANHATTAN: h = dx + dy + dz; break;
    case ASTAR_H_OCTILE:
      h = (dx < dy ? s->octile_k * dx + dy : s->octile_k * dy + dx) + dz;
      break;
    case ASTAR_H_CHEBYSHEV:
      h = dx > dy ? dx : dy;
      if (dz > h) h = dz;
      break;
    default: {
      /* bisector family: v = node - start, t = v . u (foot of the
      ** perpendicular on the start-goal line), distance to the line = |v - t u| */
      double vx = x - s->sx, vy = y - s->sy, vz = z - s->sz;
      double t = vx * s->ux + vy * s->uy + vz * s->uz;
      double px = vx - t * s->ux, py = vy - t * s->uy, pz = vz - t * s->uz;
      h = sqrt(px * px + py * py + pz * pz);
      if (s->ux == 0 && s->uy == 0 && s->uz == 0) {
        /* start == goal in space: no line; the distance to the goal */
        h = sqrt(dx * dx + dy * dy + dz * dz);
      } else if (s->q.heuristic == ASTAR_H_FULL_BISECTOR) {
        /* from the foot (start + t u) on to the goal */
        double fx = s->sx + t * s->ux - s->gx, fy = s->sy + t * s->uy - s->gy,
               fz = s->sz + t * s->uz - s->gz;
        h += sqrt(fx * fx + fy * fy + fz * fz);
      }
      break;
    }
  }
  return h <= DBL_MAX ? h : DBL_MAX;
}

/* A topology's built-in estimate for internal node v; (x, y) are the
** coordinates its expansion already has at hand (grids), or unused
** (graphs read the node's position). */
typedef double (*astar_h_fn)(const astar_search *s, int32_t v, double x, double y);

ASTAR_INLINE int fail(astar_search *s, int status, int cause, int32_t node,
                      int32_t from, int32_t link, double v) {
  s->err.cause = cause;
  s->err.node = node;
  s->err.from = from;
  s->err.link = link;
  s->err.value = v;
  return status;
}

/* The h of node v (external id ext, state index k): from the cache for
** callback heuristics (calling it on first sight), otherwise the topology's
** built-in estimate. */
ASTAR_INLINE int node_h(astar_search *s, int32_t v, int32_t k, int32_t ext, int fresh, double x,
                        double y, double *h, astar_h_fn hf) {
  if (s->q.heuristic == ASTAR_H_CALLBACK) {
    if (fresh) {
      double hv = 0;
      if (s->q.heuristic_fn(s->q.heuristic_ctx, ext, s->q.goal, &hv))
        return ASTAR_ECALLBACK;
      if (!(hv >= 0) || !isfinite(hv))
        return fail(s, ASTAR_EHEURISTIC, ASTAR_CAUSE_HEURISTIC, ext, -1, -1, hv);
      *hc_k(s, k) = hv;
    }
    *h = *hc_k(s, k);
  } else {
    *h = hf(s, v, x, y);
  }
  return ASTAR_OK;
}

ASTAR_INLINE uint32_t tie_key(astar_search *s, double h) {
  if (s->q.tie_break == ASTAR_TIE_HIGH_G) {
    union {
      float f;
      uint32_t u;
    } b;
    b.f = (float)h;
    return b.u;
  }
  return s->seq == UINT32_MAX ? s->seq : s->seq++;
}

/* ------------------------------------------------------------------------ */
/* relaxation                                                                 */
/* ------------------------------------------------------------------------ */

/*
** Offers internal node v (external id ext: callbacks and errors name it)
** the cost-so-far ng through `link`.  step is the step cost (kept for path
** costs when a cost callback decided it).  New
** nodes get their h and enter the open list; open nodes are decreased;
** closed nodes are reopened (a cheaper route to a closed node puts it back
** on the open list).  plain: the fast path's instantiation (no budgets,
** callbacks, optimal stop or partial tracking; steps cannot overflow).
** sparse: the state kept (see node_k); lazy: the open list is a lazy heap
** (sparse state only); both constant at each call site.  home: v's home
** in the slot table (sparse; slot_home, which the caller may have needed
** already); roomy (constant): the caller made room for v's entry (nslots
** below slot_room), so the table cannot need to grow here.
*/
ASTAR_INLINE int relax_at(astar_search *s, int32_t v, size_t home, int roomy, int32_t ext,
                          int32_t link, double ng, double step, double x, double y, int plain,
                          int sparse, int lazy, astar_h_fn hf) {
  const int hw = lazy ? HEAP_LAZY : HEAP_OPEN;
  int32_t k = v, *par;
  astar_node *n;
  double h, f;
  int rc, fresh;
  if (sparse) {
    /* v's entry, or the empty one it takes if it is kept (a full table
    ** grows first: then it is half empty) */
    size_t i = slot_probe_at(s, v, home, &fresh);
    if (!roomy && fresh && ASTAR_UNLIKELY(s->nslots >= s->slot_room)) {
      if (astar__slot_grow(s) != ASTAR_OK) return ASTAR_ENOMEM;
      i = slot_probe(s, v);
    }
    k = (int32_t)i;
    n = &s->slots[i].n;
    par = &s->slots[i].parent;
  } else {
    astar_page *pg = page_touch(s, v, plain);
    if (ASTAR_UNLIKELY(pg == NULL)) return ASTAR_ENOMEM;
    n = &pg->ns[v & ASTAR_PAGE_MASK];
    par = &pg->parent[v & ASTAR_PAGE_MASK];
    fresh = n->stamp != s->gen;
  }
  /* finite steps can still sum to infinity (1e308 + 1e308): no path has
  ** that cost */
  if (!plain && ASTAR_UNLIKELY(ng == HUGE_VAL))
    return fail(s, ASTAR_EOVERFLOW, ASTAR_CAUSE_SUM, ext, -1, link, ng);
  if (fresh) {
    if (!plain && ng > s->q.max_cost) {
      s->pruned = 1;
      return ASTAR_OK;
    }
    if (plain) h = hf(s, v, x, y);
    else if ((rc = node_h(s, v, k, ext, 1, x, y, &h, hf)) != ASTAR_OK) return rc;
    n->stamp = s->gen; /* sparse: the entry is taken */
    n->g = ng;
    n->pos = POS_CLOSED;
    *par = link;
    if (sparse) {
      s->slots[k].node = v;
      s->nslots++;
    }
    s->st.generated++;
    if (!plain) {
      if (s->q.stop == ASTAR_STOP_OPTIMAL) *gpos_k(s, k) = -1;
      if (s->use_cc) *cc_k(s, k) = step;
      if (s->q.track_best && h < s->best_h) {
        s->best_h = h;
        s->best = v;
      }
    }
    if (v == s->goal) s->reached = 1;
  } else {
    if (!(ng < n->g)) return ASTAR_OK;
    if (n->pos == POS_CLOSED) {
      if (!(ng < n->g - REOPEN_EPS * n->g)) return ASTAR_OK;
      s->st.reopened++;
      s->st.generated++; /* back on the open list */
    }
    if (plain) h = hf(s, v, x, y);
    else if ((rc = node_h(s, v, k, ext, 0, x, y, &h, hf)) != ASTAR_OK) return rc;
    n->g = ng;
    *par = link;
    if (!plain && s->use_cc) *cc_k(s, k) = step;
  }
  if (plain || s->q.weight == 1.0) f = ng + h;
  else f = s->q.weight == 0 ? ng : ng + s->q.weight * h;
  if (n->pos >= 0) {
    heap_update(s, &s->open, (size_t)n->pos, f, tie_key(s, h), HEAP_OPEN);
  } else { /* lazy (sparse): an open node's cheaper offer is a new item */
    astar_heap_item it;
    it.fkey = fkey(f);
    it.k = tie_key(s, h);
    it.node = k;
    if (s->next.node < 0 || s->next.node == k || item_less(&it, &s->next)) {
      /* v takes the bypass slot; a previous holder goes to the heap */
      if (s->next.node >= 0 && s->next.node != k &&
          heap_push_in(s, &s->open, s->next.node, key_f(s->next.fkey), s->next.k, hw))
        return ASTAR_ENOMEM;
      s->next = it;
      n->pos = POS_NEXT;
    } else if (heap_push_in(s, &s->open, k, f, it.k, hw)) {
      return ASTAR_ENOMEM;
    }
  }
  if (!plain && s->q.stop == ASTAR_STOP_OPTIMAL) {
    int32_t gp = *gpos_k(s, k);
    if (gp >= 0) heap_update(s, &s->byg, (size_t)gp, ng, 0, HEAP_BYG);
    else if (heap_push(s, &s->byg, k, ng, 0, HEAP_BYG)) return ASTAR_ENOMEM;
  }
  return ASTAR_OK;
}

/* relax_at from v's home (sparse), the table's room checked there. */
ASTAR_INLINE int relax_in(astar_search *s, int32_t v, int32_t ext, int32_t link, double ng,
                          double step, double x, double y, int plain, int sparse, int lazy,
                          astar_h_fn hf) {
  return relax_at(s, v, sparse ? slot_home(s, v) : 0, 0, ext, link, ng, step, x, y, plain, sparse,
                  lazy, hf);
}

/* relax_in with this translation unit's kind of state. */
ASTAR_INLINE int relax_impl(astar_search *s, int32_t v, int32_t ext, int32_t link,
                            double ng, double step, double x, double y, int plain,
                            astar_h_fn hf) {
  return relax_in(s, v, ext, link, ng, step, x, y, plain, ASTAR_SPARSE_OF(s), 0, hf);
}

/* ------------------------------------------------------------------------ */
/* the query's step modifiers                                                 */
/* ------------------------------------------------------------------------ */

/* The cost callback's part of query_step, alone: a topology whose step
** cost gathers several nodes' costs (a grid's sized units) runs it once on
** the gathered cost.  Same returns as query_step. */
ASTAR_INLINE int query_callback(astar_search *s, int32_t from, int32_t to,
                                int32_t link, double *c) {
  double out = *c;
  if (!s->q.cost_fn) return 1;
  if (s->q.cost_fn(s->q.cost_ctx, from, to, link, *c, &out)) return ASTAR_ECALLBACK;
  if (out == ASTAR_FORBID) return 0;
  if (!(out >= 0) || !isfinite(out))
    return fail(s, ASTAR_ECOST, ASTAR_CAUSE_CALLBACK, to, from, link, out);
  *c = out;
  return 1;
}

/* The query leaves every step at its cost before the filter (no tag
** factor, forbid field, penalty or cost callback): query_step would
** multiply it by 1 and add nothing.  A modifier added to query_step
** belongs here too. */
ASTAR_INLINE int query_steps_plain(const astar_search *s) {
  return !s->q.tag_factor && !s->q.forbid && !s->q.penalty && !s->q.cost_fn;
}

/*
** The query's cost of the step from -> to (external ids; link: the edge or
** direction) whose cost before the query's filter is *c: tag factor
** (tag t), penalty of the entered node, then the cost callback (filter.h
** holds the rules; this adds the search's errors and the callback).  1: the step
** is allowed at cost *c; 0: forbidden (tag factor, forbid field, callback);
** < 0: an error status (err names the cause).  The same function serves
** relaxation and the path costs computed afterwards (callbacks are not run
** again then: their costs are recorded).
*/
ASTAR_INLINE int query_step(astar_search *s, int32_t from, int32_t to,
                            int32_t link, int32_t t, double *c, int callback) {
  int forbidden;
  double k = filter_factor(&s->q, t, &forbidden), v = *c;
  if (forbidden || filter_field_forbids(s->q.forbid, to)) return 0;
  if (ASTAR_UNLIKELY(!isfinite(v)))
    return fail(s, ASTAR_ECOST, ASTAR_CAUSE_STEP, to, from, link, v);
  v *= k;
  if (ASTAR_UNLIKELY(!isfinite(v)))
    return fail(s, ASTAR_ECOST, ASTAR_CAUSE_TAG_FACTOR, to, from, link, v);
  if (s->q.penalty) {
    v += s->q.penalty[to] * s->q.penalty_scale;
    if (!(v >= 0) || !isfinite(v))
      return fail(s, ASTAR_ECOST, ASTAR_CAUSE_PENALTY, to, from, link, v);
  }
  if (callback && s->q.cost_fn) {
    int rc = query_callback(s, from, to, link, &v);
    if (rc <= 0) return rc;
  }
  *c = v;
  return 1;
}

/* ------------------------------------------------------------------------ */
/* the loop                                                                   */
/* ------------------------------------------------------------------------ */

/* Records the expansion of internal node v (state index k: trace, visited). */
static int record(astar_search *s, int32_t v, int32_t k, double f) {
  int32_t ext = s->ops->external(s->topo, v);
  if (s->q.record_visited) {
    if (astar__grow(s->alloc, s->ud, (void **)&s->visited, &s->visited_cap,
                    s->nvisited + 1, sizeof(int32_t)))
      return ASTAR_ENOMEM;
    s->visited[s->nvisited++] = ext;
  }
  if (s->q.record_trace) {
    astar_trace_entry *t;
    int32_t link = *parent_k(s, k), par = -1;
    if (astar__grow(s->alloc, s->ud, (void **)&s->trace, &s->trace_cap,
                    s->ntrace + 1, sizeof(astar_trace_entry)))
      return ASTAR_ENOMEM;
    if (link >= 0) /* jump point search keeps the parent's id as the link */
      par = s->ops->external(s->topo, s->jps ? link : s->ops->link_from(s->topo, v, link));
    t = &s->trace[s->ntrace++];
    t->node = ext;
    t->parent = par;
    t->g = node_k(s, k)->g;
    t->f = f;
  }
  return ASTAR_OK;
}

typedef int (*astar_expand_fn)(astar_search *s, int32_t u);

/*
** Runs at most max_steps expansions (0: no limit) of the search, expanding
** with `expand`.  astar_search_step has checked the status and the
** topology's version.  Instantiated once per topology and expansion kind:
**   static int graph_run_plain(astar_search *s, uint64_t n)
**   { return search_loop(s, n, expand_graph_plain); }
** (grids instantiate it through lattice.h's LAT_MODES, once per mode).
** search_loop_in: hw, the open list's kind (HEAP_OPEN or HEAP_LAZY); plain,
** the fast path's loop (no stop = "optimal": search.c's query_plain), both
** constant.
*/
ASTAR_INLINE int search_loop_in(astar_search *s, uint64_t max_steps, astar_expand_fn expand,
                                int hw, int plain) {
  /* the query's fields the loop tests, read once (an expansion may write
  ** anything, as far as the compiler knows) */
  const int stop = s->q.stop, optimal = !plain && stop == ASTAR_STOP_OPTIMAL,
            rec = s->q.record_trace || s->q.record_visited;
  const uint64_t max_exp = s->q.max_expansions;
  const int32_t goal = s->goal;
  /* the expansions left before either budget (max_steps, this call's;
  ** max_expansions, the query's) runs out: one count down a step */
  uint64_t left = max_steps ? max_steps : UINT64_MAX;
  if (max_exp) {
    uint64_t r = s->st.expanded < max_exp ? max_exp - s->st.expanded : 0;
    if (r < left) left = r;
  }
  for (;;) {
    astar_heap_item top;
    int32_t u;
    int rc;
    if (s->reached) {
      if (stop == ASTAR_STOP_FIRST_HIT) return s->status = ASTAR_FOUND;
      if (optimal &&
          (s->byg.n == 0 || key_f(s->byg.a[0].fkey) >= node_at(s, goal)->g))
        return s->status = ASTAR_FOUND;
    }
    if (hw == HEAP_LAZY)
      while (s->open.n > 0 && heap_stale(s)) heap_pop(s, &s->open, hw);
    if (ASTAR_UNLIKELY(s->next.node < 0 && s->open.n == 0)) {
      if (goal == -1) return s->status = ASTAR_FOUND; /* distances: all settled */
      return s->status = s->pruned ? ASTAR_MAX_COST : ASTAR_UNREACHABLE;
    }
    if (ASTAR_UNLIKELY(left == 0)) {
      if (max_exp && s->st.expanded >= max_exp) return s->status = ASTAR_MAX_EXPANSIONS;
      return ASTAR_SEARCHING;
    }
    /* take the best open node: the bypass slot when its key is no worse than
    ** the heap's top (the heap would have returned it too) */
    if (s->next.node >= 0 &&
        (s->open.n == 0 || !item_less(&s->open.a[0], &s->next))) {
      top = s->next;
      s->next.node = -1;
    } else {
      top = s->open.a[0];
      if (s->next.node >= 0) {
        /* the slot lost to the heap's top: it takes the top's place and
        ** sinks (one descent, mostly short, instead of a pop's descent
        ** and a push's climb; see "Successor bypass" above) */
        astar_heap_item nx = s->next;
        if (hw == HEAP_LAZY) node_k(s, nx.node)->pos = POS_OPEN;
        s->next.node = -1;
        heap_sink(s, &s->open, 0, nx, hw);
      } else {
        heap_pop(s, &s->open, hw);
      }
    }
    node_k(s, top.node)->pos = POS_CLOSED;
    if (optimal)
      heap_remove(s, &s->byg, (size_t)*gpos_k(s, top.node), HEAP_BYG);
    u = node_of(s, top.node, ASTAR_ENGINE_SPARSE);
    if (ASTAR_ENGINE_SPARSE) {
      s->cur_node = u; /* state_of finds it without a probe */
      s->cur_k = top.node;
    }
    s->st.expanded++;
    left--;
    if (rec &&
        (rc = record(s, u, top.node, key_f(top.fkey))) != ASTAR_OK)
      return s->status = rc;
    if (u == goal && stop == ASTAR_STOP_EXPAND)
      return s->status = ASTAR_FOUND;
    if ((rc = expand(s, u)) != ASTAR_OK) return s->status = rc;
  }
}

/* search_loop_in with the indexed open list (the precomputed mode also
** instantiates it with HEAP_LAZY, its open list's kind: see s->lazy). */
ASTAR_INLINE int search_loop(astar_search *s, uint64_t max_steps, astar_expand_fn expand) {
  return search_loop_in(s, max_steps, expand, HEAP_OPEN, 0);
}

ASTAR_INTERNAL_END

#endif
