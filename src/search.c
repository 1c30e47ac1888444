/*
** search.c -- the search object: topology entry points, queries (defaults,
** checks, the fast-path decision), begin, step, and the results.
**
** Nothing here knows a kind of topology: begin asks the topology's
** operations for ids, positions and passability, and picks one of its
** instantiated loops (ops->run[mode]: general, plain, reverse, sized,
** sized reverse; or the jump point search of ops->jps), asking its
** abilities (a NULL hook: the topology lacks it); step runs it; results
** walk the parent links through link_from.  The loop itself is engine.h.
*/
#include <math.h>
#include <string.h>

/* This file serves both kinds of node state (engine.h): its copies of the
** state accessors ask the search which its query keeps.  (The single-file
** build includes engine.h once, earlier: there every loop keeps dense
** state and s->sparse is 0.) */
#ifndef ASTAR_ENGINE_H
#define ASTAR_SPARSE_OF(s) ((s)->sparse)
#endif
#include "engine.h"

/* ------------------------------------------------------------------------ */
/* topologies                                                                 */
/* ------------------------------------------------------------------------ */

const char *astar_topology_kind(const astar_topology *t) { return t->ops->kind; }
int32_t astar_topology_node_count(const astar_topology *t) { return t->ops->count(t); }
void astar_topology_lock(astar_topology *t, int delta) { t->lock += delta; }
int astar_topology_locked(const astar_topology *t) { return t->lock > 0; }
uint32_t astar_topology_version(const astar_topology *t) { return t->version; }
size_t astar_topology_bytes(const astar_topology *t) {
  return t->ops->bytes(t) + astar__comp_bytes(t);
}
/* Also brings the component labels up to date: after it, searches of t
** (from several threads at once) only read the topology. */
int astar_topology_prepare(astar_topology *t, const astar_query *q) {
  int rc = t->ops->prepare(t, 0);
  if (rc == ASTAR_OK) rc = astar__comp_refresh(t);
  if (rc != ASTAR_OK || q == NULL || q->size <= 1) return rc;
  rc = t->ops->units ? t->ops->units->prepare(t) : ASTAR_EINVAL;
  /* a sized jump point search's bit sets (what its queries would build) */
  if (rc == ASTAR_OK && t->ops->jps && astar_jps_refusal(t, q) == NULL)
    rc = t->ops->jps->prepare_sized(t, q->size);
  return rc;
}
int32_t astar_topology_max_size(const astar_topology *t) {
  return t->ops->units ? ASTAR_MAX_UNIT : 1;
}
unsigned astar_topology_abilities(const astar_topology *t) {
  return t->ops->abilities | (t->ops->jps ? (unsigned)ASTAR_CAN_JPS : 0u) |
         (t->ops->units ? (unsigned)ASTAR_CAN_UNITS : 0u);
}

int astar_topology_default_heuristic(const astar_topology *t) {
  return t->ops->default_heuristic(t);
}

int astar_topology_accepts(const astar_topology *t, int h) {
  return h >= 0 && h < ASTAR_H_CALLBACK && (t->ops->heuristics & HEURISTIC_BIT(h)) != 0;
}

int astar_topology_passable(const astar_topology *t, int32_t node) {
  if (node < 0 || node >= t->ops->count(t)) return ASTAR_EINVAL;
  return t->ops->passable(t, t->ops->internal(t, node));
}

int astar_topology_position(const astar_topology *t, int32_t node, double xyz[3]) {
  if (node < 0 || node >= t->ops->count(t)) return ASTAR_EINVAL;
  t->ops->position(t, t->ops->internal(t, node), xyz);
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* lifecycle                                                                  */
/* ------------------------------------------------------------------------ */

astar_search *astar_search_new(astar_alloc_fn alloc, void *ud) {
  astar_search *s = (astar_search *)astar__mem(alloc, ud, NULL, 0, sizeof *s);
  if (s == NULL) return NULL;
  memset(s, 0, sizeof *s);
  s->alloc = alloc;
  s->ud = ud;
  s->gen = 1;
  s->status = ASTAR_ESTATE;
  s->next.node = -1;
  s->cur_node = -1;
  s->best = -1;
  return s;
}

static void slabs_free(astar_search *s, astar_slab *b) {
  while (b) {
    astar_slab *next = b->next;
    astar__mem(s->alloc, s->ud, b, b->bytes, 0);
    b = next;
  }
}

void astar_search_free(astar_search *s) {
  if (s == NULL) return;
  slabs_free(s, s->slabs);
  slabs_free(s, s->xslabs);
  astar__release(s->alloc, s->ud, (void **)&s->pages, &s->pages_cap, sizeof(astar_page *));
  astar__release(s->alloc, s->ud, (void **)&s->nsb, &s->nsb_cap, sizeof(uintptr_t));
  astar__release(s->alloc, s->ud, (void **)&s->xpages, &s->xpages_cap, sizeof(astar_xpage *));
  astar__release(s->alloc, s->ud, (void **)&s->slots, &s->slots_cap, sizeof(astar_slot));
  astar__release(s->alloc, s->ud, (void **)&s->slotx, &s->slotx_cap, sizeof(astar_slotx));
  astar__release(s->alloc, s->ud, (void **)&s->scratch, &s->scratch_cap, sizeof(double));
  astar__release(s->alloc, s->ud, (void **)&s->ids, &s->ids_cap, sizeof(int32_t));
  astar__release(s->alloc, s->ud, (void **)&s->foot, &s->foot_cap, sizeof(int32_t));
  astar__release(s->alloc, s->ud, (void **)&s->open.a, &s->open.cap, sizeof(astar_heap_item));
  astar__release(s->alloc, s->ud, (void **)&s->byg.a, &s->byg.cap, sizeof(astar_heap_item));
  astar__release(s->alloc, s->ud, (void **)&s->trace, &s->trace_cap, sizeof(astar_trace_entry));
  astar__release(s->alloc, s->ud, (void **)&s->visited, &s->visited_cap, sizeof(int32_t));
  astar__mem(s->alloc, s->ud, s, sizeof *s, 0);
}

size_t astar_search_bytes(const astar_search *s) {
  return sizeof *s + s->slab_bytes +
         s->pages_cap * sizeof(astar_page *) + s->xpages_cap * sizeof(astar_xpage *) +
         s->nsb_cap * sizeof(uintptr_t) + s->slots_cap * sizeof(astar_slot) +
         s->slotx_cap * sizeof(astar_slotx) +
         (s->open.cap + s->byg.cap) * sizeof(astar_heap_item) +
         s->trace_cap * sizeof(astar_trace_entry) + s->visited_cap * sizeof(int32_t) +
         s->scratch_cap * sizeof(double) + (s->ids_cap + s->foot_cap) * sizeof(int32_t);
}

/* Grows a page directory to n entries, the new ones empty. */
static int search_grow_dir(astar_search *s, void ***dir, size_t *cap, size_t n) {
  size_t old = *cap;
  if (n <= old) return ASTAR_OK;
  if (astar__resize(s->alloc, s->ud, (void **)dir, cap, n, sizeof(void *)))
    return ASTAR_ENOMEM;
  memset(*dir + old, 0, (n - old) * sizeof(void *));
  return ASTAR_OK;
}

/* The header of a block, rounded up so its pages are aligned as any
** scalar they hold. */
#define SLAB_HEAD ((sizeof(astar_slab) + 15) & ~(size_t)15)
#define SLAB_FIRST 4
#define SLAB_MAX 256

/* A page of `size` bytes from the blocks of list *head (a new block, twice
** the last one up to SLAB_MAX pages, when it is full); NULL when out of
** memory.  The page is not zeroed. */
static void *slab_take(astar_search *s, astar_slab **head, size_t size) {
  astar_slab *b = *head;
  if (b == NULL || b->used == b->cap) {
    size_t cap = b == NULL ? SLAB_FIRST : b->cap * 2 > SLAB_MAX ? SLAB_MAX
                                                                : b->cap * 2;
    size_t bytes = SLAB_HEAD + cap * size;
    astar_slab *nb = (astar_slab *)astar__mem(s->alloc, s->ud, NULL, 0, bytes);
    if (nb == NULL) return NULL;
    nb->next = b;
    nb->cap = cap;
    nb->used = 0;
    nb->bytes = bytes;
    *head = b = nb;
    s->slab_bytes += bytes;
  }
  return (char *)b + SLAB_HEAD + b->used++ * size;
}

/* Called by page_touch (engine.h) the first time a dense query reaches a
** node of a page that does not exist yet.  A fresh page is zeroed: stamp 0
** is no live generation's, so its nodes read as untouched. */
int astar__touch_page(astar_search *s, int32_t v) {
  size_t i = (size_t)v >> ASTAR_PAGE_BITS;
  if (s->pages[i] == NULL) {
    astar_page *p = (astar_page *)slab_take(s, &s->slabs, sizeof *p);
    if (p == NULL) return ASTAR_ENOMEM;
    memset(p, 0, sizeof *p);
    s->pages[i] = p;
    /* unsigned arithmetic: wraps harmlessly below the page's address */
    s->nsb[i] = (uintptr_t)p->ns - ((uintptr_t)i << ASTAR_PAGE_BITS) * sizeof(astar_node);
    s->npages++;
  }
  if (s->use_x && s->xpages[i] == NULL) {
    astar_xpage *x = (astar_xpage *)slab_take(s, &s->xslabs, sizeof *x);
    if (x == NULL) return ASTAR_ENOMEM;
    s->xpages[i] = x; /* read only where the node's stamp is current */
    s->nxpages++;
  }
  return ASTAR_OK;
}

/*
** Called by relax_in (engine.h) when the slot table is half full (or
** absent): a table twice as large (256 entries the first time) takes this
** query's entries, each at the first empty entry of its probe sequence
** (with its extras when the search keeps them), and every state index the
** search holds -- the heaps' items, the bypass slot, the expanded node's --
** is renamed to the entry's new place.  Paid by the query that touched
** that many nodes, in proportion to them; the table then serves every later
** query of this search without growing (its memory is what the largest
** jump point search needed, and stays warm).  ENOMEM changes nothing.
*/
int astar__slot_grow(astar_search *s) {
  size_t cap = s->slots_cap ? s->slots_cap * 2 : 256, i, j;
  astar_slot *t, *o = s->slots;
  astar_slotx *x = NULL;
  int shift = 32;
  if (cap > ((size_t)INT32_MAX + 1) || cap > SIZE_MAX / sizeof(astar_slotx)) return ASTAR_ENOMEM;
  t = (astar_slot *)astar__mem(s->alloc, s->ud, NULL, 0, cap * sizeof(astar_slot));
  if (t == NULL) return ASTAR_ENOMEM;
  if (s->slotx_cap != 0 || s->use_x) { /* the extras follow the table */
    x = (astar_slotx *)astar__mem(s->alloc, s->ud, NULL, 0, cap * sizeof(astar_slotx));
    if (x == NULL) {
      astar__mem(s->alloc, s->ud, t, cap * sizeof(astar_slot), 0);
      return ASTAR_ENOMEM;
    }
  }
  for (i = 0; i < cap; i++) t[i].n.stamp = 0;
  for (i = cap; i > 1; i >>= 1) shift--;
  for (i = 0; i < s->slots_cap; i++) {
    if (o[i].n.stamp != s->gen) continue;
    j = (size_t)(((uint32_t)o[i].node * 2654435769u) >> shift);
    while (t[j].n.stamp == s->gen) j = (j + 1) & (cap - 1);
    t[j] = o[i];
    if (x != NULL && s->slotx != NULL) x[j] = s->slotx[i];
    o[i].n.pos = (int32_t)j; /* the old entry says where it went */
  }
  for (i = 0; i < s->open.n; i++) s->open.a[i].node = o[s->open.a[i].node].n.pos;
  for (i = 0; i < s->byg.n; i++) s->byg.a[i].node = o[s->byg.a[i].node].n.pos;
  if (s->next.node >= 0) s->next.node = o[s->next.node].n.pos;
  if (s->cur_node >= 0) s->cur_k = o[s->cur_k].n.pos;
  astar__mem(s->alloc, s->ud, o, s->slots_cap * sizeof(astar_slot), 0);
  s->slots = t;
  if (x != NULL) {
    astar__mem(s->alloc, s->ud, s->slotx, s->slotx_cap * sizeof(astar_slotx), 0);
    s->slotx = x;
    s->slotx_cap = cap;
  }
  s->slots_cap = cap;
  s->slot_mask = cap - 1;
  s->slot_shift = shift;
  s->slot_room = (int32_t)(cap / 2);
  return ASTAR_OK;
}

/* The extras beside a slot table made without them (a first query that
** keeps extras after others that did not): by that query's begin, as large
** as the table.  ENOMEM changes nothing. */
static int slotx_make(astar_search *s) {
  astar_slotx *x;
  if (s->slotx_cap != 0 || s->slots_cap == 0) return ASTAR_OK;
  if (s->slots_cap > SIZE_MAX / sizeof(astar_slotx)) return ASTAR_ENOMEM;
  x = (astar_slotx *)astar__mem(s->alloc, s->ud, NULL, 0, s->slots_cap * sizeof(astar_slotx));
  if (x == NULL) return ASTAR_ENOMEM;
  s->slotx = x; /* read only where an entry's stamp is current */
  s->slotx_cap = s->slots_cap;
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* queries: defaults, checks and the fast-path decision, side by side         */
/* ------------------------------------------------------------------------ */

void astar_query_init(astar_query *q, int32_t start, int32_t goal) {
  memset(q, 0, sizeof *q); /* every field and the padding: see query_plain */
  q->start = start;
  q->goal = goal;
  q->heuristic = ASTAR_H_DEFAULT;
  q->weight = 1.0;
  q->stop = ASTAR_STOP_EXPAND;
  q->tie_break = ASTAR_TIE_HIGH_G;
  q->penalty_scale = 1.0;
  q->max_cost = HUGE_VAL;
  q->size = 1;
}

static int validate_query(const astar_query *q, const astar_topology *topo) {
  int32_t n = topo->ops->count(topo);
  if (q->start < 0 || q->start >= n || q->goal < 0 || q->goal >= n)
    return ASTAR_EINVAL;
  if (q->heuristic < ASTAR_H_DEFAULT || q->heuristic > ASTAR_H_CALLBACK)
    return ASTAR_EINVAL;
  if (q->heuristic >= 0 && q->heuristic < ASTAR_H_CALLBACK &&
      !astar_topology_accepts(topo, q->heuristic))
    return ASTAR_EINVAL; /* "hex" on a square grid ... */
  if (q->heuristic == ASTAR_H_CALLBACK && q->heuristic_fn == NULL)
    return ASTAR_EINVAL;
  if (!(q->weight >= 0) || !isfinite(q->weight)) return ASTAR_EINVAL;
  if (q->stop < ASTAR_STOP_EXPAND || q->stop > ASTAR_STOP_OPTIMAL)
    return ASTAR_EINVAL;
  if (q->tie_break != ASTAR_TIE_HIGH_G && q->tie_break != ASTAR_TIE_FIFO)
    return ASTAR_EINVAL;
  if (q->tag_factor != NULL) {
    int32_t t;
    if (q->tag_count < 0) return ASTAR_EINVAL;
    for (t = 1; t < q->tag_count; t++)
      if (!(q->tag_factor[t] >= 0) ||
          (!isfinite(q->tag_factor[t]) && q->tag_factor[t] != ASTAR_FORBID))
        return ASTAR_EINVAL;
  }
  if (!isfinite(q->penalty_scale)) return ASTAR_EINVAL;
  if (isnan(q->max_cost) || q->max_cost < 0) return ASTAR_EINVAL;
  if (q->algorithm < ASTAR_ALGO_AUTO || q->algorithm > ASTAR_ALGO_JPS_PLUS) return ASTAR_EINVAL;
  if (q->size < 1 || q->size > ASTAR_MAX_UNIT) return ASTAR_EINVAL;
  return ASTAR_OK;
}

/*
** The query's part of the fast-path decision (the topology's part is
** ops->plain).  The fast path honours the ends, a built-in heuristic, the
** expand and first_hit stops, the tie-break, max_expansions, trace and
** visited, and nothing else: the query is compared with the defaults after
** copying exactly those fields.  Any other field that differs -- one added
** to astar_query later included -- sends the query down the general path,
** so a new option can make a query slower, never silently ignored.
*/
static int query_plain(const astar_query *q) {
  astar_query d;
  if (q->heuristic == ASTAR_H_CALLBACK || q->stop == ASTAR_STOP_OPTIMAL) return 0;
  astar_query_init(&d, q->start, q->goal);
  d.heuristic = q->heuristic;
  d.stop = q->stop;
  d.tie_break = q->tie_break;
  d.max_expansions = q->max_expansions;
  d.record_trace = q->record_trace;
  d.record_visited = q->record_visited;
  d.algorithm = q->algorithm;
  return memcmp(&d, q, sizeof d) == 0;
}

/* ------------------------------------------------------------------------ */
/* begin                                                                      */
/* ------------------------------------------------------------------------ */

/* Sizes the page directories for n nodes (the pages themselves come as the
** search touches them). */
static int reserve(astar_search *s, size_t n) {
  return astar__search_reserve(s, (n + ASTAR_PAGE - 1) >> ASTAR_PAGE_BITS);
}

/* Sizes the page directories for np pages. */
int astar__search_reserve(astar_search *s, size_t np) {
  if (s->nsb_cap < np &&
      astar__resize(s->alloc, s->ud, (void **)&s->nsb, &s->nsb_cap, np, sizeof(uintptr_t)))
    return ASTAR_ENOMEM;
  if (search_grow_dir(s, (void ***)&s->pages, &s->pages_cap, np)) return ASTAR_ENOMEM;
  if (s->use_x && search_grow_dir(s, (void ***)&s->xpages, &s->xpages_cap, s->pages_cap))
    return ASTAR_ENOMEM;
  return ASTAR_OK;
}

int astar__search_regrow(astar_search *s) {
  s->count = s->ops->count(s->topo);
  return reserve(s, s->ops->span(s->topo));
}

/*
** Everything both begins share: checks q against t, prepares t, copies the
** query (heuristic resolved), resets the state.  On failure the search is
** left with no query (ESTATE).  The node directory is sized by each begin
** (reserve) once it knows the search will run: a path proven unreachable
** before (the components) never pays for the directory of a map it does
** not search (on 2048 x 2048, half a millisecond the first time).
*/
static int begin_query(astar_search *s, astar_topology *t, const astar_query *q,
                       int reverse) {
  const astar_topo_ops *ops = t->ops;
  int rc;
  double len;
  s->status = ASTAR_ESTATE;
  s->topo = NULL;
  if ((rc = validate_query(q, t)) != ASTAR_OK) return rc;
  if ((rc = ops->prepare(t, reverse)) != ASTAR_OK) return rc;
  if (q->size > 1) {
    if (ops->units == NULL) return ASTAR_EINVAL;
    if ((rc = ops->units->prepare(t)) != ASTAR_OK) return rc;
  }
  s->q = *q;
  if (s->q.heuristic == ASTAR_H_DEFAULT) s->q.heuristic = ops->default_heuristic(t);
  /* the filter's forbidden nodes: a forbid array, or a forbidding tag
  ** factor where nodes carry tags (filter.h) */
  s->shuts = s->q.forbid != NULL || (ops->node_tag != NULL && filter_forbids_tags(&s->q));
  s->use_cc = s->q.cost_fn != NULL;
  s->use_x = s->use_cc || s->q.heuristic == ASTAR_H_CALLBACK ||
             s->q.stop == ASTAR_STOP_OPTIMAL;
  s->topo = t;
  s->ops = ops;
  s->count = ops->count(t);
  s->version = t->version;
  s->reverse = reverse;
  s->octile_k = ops->octile_k;
  s->jps = 0;
  if (s->q.size > 1) {
    s->run = ops->run[reverse ? ASTAR_RUN_SIZED_REVERSE : ASTAR_RUN_SIZED];
    /* jump point search for units: forward searches it can serve, as below */
    if (!reverse && astar_jps_refusal(t, &s->q) == NULL &&
        (s->q.algorithm == ASTAR_ALGO_JPS ||
         (s->q.algorithm == ASTAR_ALGO_AUTO && !s->q.track_best))) {
      s->jps = 1;
      s->run = ops->jps->run_sized;
      if ((rc = ops->jps->prepare_sized(t, s->q.size)) != ASTAR_OK) { /* its bit sets */
        s->topo = NULL;
        return rc;
      }
    } else if (s->q.algorithm == ASTAR_ALGO_JPS || s->q.algorithm == ASTAR_ALGO_JPS_PLUS) {
      /* astar_jps_refusal, astar_jps_plus_refusal say why */
      s->topo = NULL;
      return ASTAR_EINVAL;
    }
  } else if (reverse) {
    s->run = ops->run[ASTAR_RUN_REVERSE];
  } else {
    int plain = ops->plain && ops->plain(t) && query_plain(&s->q);
    /* jump point search: decided once per query, here.  AUTO leaves
    ** partial searches (track_best) to A*: their answer when the goal is not
    ** reached is the closest cell, and JPS estimates only jump points */
    int jps_ok = astar_jps_refusal(t, &s->q) == NULL;
    /* the precomputed mode: asked for, or AUTO where the grid holds its
    ** table (jpsplus.c) */
    int plus_ok = jps_ok && ops->jps->plus_refusal(t, &s->q) == NULL;
    if (plus_ok && (s->q.algorithm == ASTAR_ALGO_JPS_PLUS ||
                    (s->q.algorithm == ASTAR_ALGO_AUTO && !s->q.track_best &&
                     ops->jps->plus_auto(t)))) {
      s->jps = 1;
      s->run = plain ? ops->jps->run_plus_plain : ops->jps->run_plus;
    } else if (s->q.algorithm == ASTAR_ALGO_JPS_PLUS) {
      s->topo = NULL;
      return ASTAR_EINVAL;
    } else if (jps_ok && (s->q.algorithm == ASTAR_ALGO_JPS ||
                          (s->q.algorithm == ASTAR_ALGO_AUTO && !s->q.track_best))) {
      s->jps = 1;
      s->run = plain ? ops->jps->run_plain : ops->jps->run;
    } else if (s->q.algorithm == ASTAR_ALGO_JPS) {
      s->topo = NULL;
      return ASTAR_EINVAL;
    } else {
      s->run = ops->run[plain ? ASTAR_RUN_PLAIN : ASTAR_RUN_GENERAL];
    }
  }
  s->sparse = s->jps && astar__jps_sparse; /* jps.h: the jump point loops' state */
  /* the precomputed mode on a map of long runs keeps a lazy open list
  ** (engine.h's HEAP_LAZY): there a query seldom finds a cheaper route to
  ** an open node (1 pop in 10 meets a stale item on game maps); on maps of
  ** short runs (the table's "auto" says which) 4 to 6 in 10 do, and the
  ** indexed heap is faster */
  s->lazy = s->sparse && (s->run == ops->jps->run_plus || s->run == ops->jps->run_plus_plain) &&
            ops->jps->plus_auto(t);
  s->nslots = 0;
  s->cur_node = -1;
  if (++s->gen == 0) {
    size_t i;
    int j;
    for (i = 0; i < s->pages_cap; i++)
      if (s->pages[i])
        for (j = 0; j < ASTAR_PAGE; j++) s->pages[i]->ns[j].stamp = 0;
    for (i = 0; i < s->slots_cap; i++) s->slots[i].n.stamp = 0;
    s->gen = 1;
  }
  s->open.n = s->byg.n = 0;
  s->next.node = -1;
  s->ntrace = s->nvisited = 0;
  s->reached = 0;
  s->seq = 0;
  memset(&s->st, 0, sizeof s->st);
  s->best = -1;
  s->best_h = HUGE_VAL;
  s->pruned = 0;
  memset(&s->err, 0, sizeof s->err);
  s->err.node = s->err.from = s->err.link = -1;
  len = sqrt((s->gx - s->sx) * (s->gx - s->sx) + (s->gy - s->sy) * (s->gy - s->sy) +
             (s->gz - s->sz) * (s->gz - s->sz));
  if (len > 0 && isfinite(len)) {
    s->ux = (s->gx - s->sx) / len;
    s->uy = (s->gy - s->sy) / len;
    s->uz = (s->gz - s->sz) / len;
  } else {
    s->ux = s->uy = s->uz = 0;
  }
  if (s->q.size > 1 && (rc = ops->units->begin(s)) != ASTAR_OK) {
    s->topo = NULL;
    return rc;
  }
  return ASTAR_OK;
}

const char *astar_jps_refusal(const astar_topology *t, const astar_query *q) {
  return t->ops->jps ? t->ops->jps->refusal(t, q) : t->ops->noun;
}

const char *astar_jps_plus_refusal(const astar_topology *t, const astar_query *q) {
  const char *why = astar_jps_refusal(t, q); /* the noun where no JPS */
  return why ? why : t->ops->jps->plus_refusal(t, q);
}

/* Internal node v (external id ext) may start or end a path of this query
** (or seed a distance search): passable, and not forbidden by the filter. */
static int open_for(const astar_search *s, int32_t v, int32_t ext) {
  if (s->q.size > 1) return s->ops->units->holds(s, v);
  return s->ops->passable(s->topo, v) &&
         !(s->shuts &&
           filter_forbids(&s->q, ext, s->ops->node_tag ? s->ops->node_tag(s->topo, v) : 0));
}

/* The topology's own estimate at v, in the shape relax_impl takes (its
** loops inline theirs; seeding goes through the table). */
static double ops_h(const astar_search *s, int32_t v, double x, double y) {
  (void)x;
  (void)y;
  return s->ops->estimate(s, v);
}

/* Puts internal node v on the open list at cost 0, in the query's kind of
** state. */
static int seed(astar_search *s, int32_t v) {
  int32_t ext = s->ops->external(s->topo, v);
  if (s->lazy) return relax_in(s, v, ext, -1, 0.0, 0.0, 0, 0, 0, 1, 1, ops_h);
  return relax_impl(s, v, ext, -1, 0.0, 0.0, 0, 0, 0, ops_h);
}

int astar_search_begin(astar_search *s, astar_topology *t, const astar_query *q) {
  const astar_topo_ops *ops = t->ops;
  double a[3], b[3];
  int rc, start_ok, goal_ok;
  if (q->start >= 0 && q->start < ops->count(t) && q->goal >= 0 &&
      q->goal < ops->count(t)) {
    ops->position(t, ops->internal(t, q->start), a);
    ops->position(t, ops->internal(t, q->goal), b);
    s->sx = a[0];
    s->sy = a[1];
    s->sz = a[2];
    s->gx = b[0];
    s->gy = b[1];
    s->gz = b[2];
  }
  if ((rc = begin_query(s, t, q, 0)) != ASTAR_OK) return rc;
  s->start = ops->internal(t, q->start);
  s->goal = ops->internal(t, q->goal);
  start_ok = open_for(s, s->start, q->start);
  goal_ok = open_for(s, s->goal, q->goal);
  /* An impassable goal still gets a search when the query tracks the best
  ** node: a partial path toward a wall (a player clicked on it) is the
  ** point of partial paths. */
  if (!start_ok || (!goal_ok && !s->q.track_best)) {
    s->status = ASTAR_UNREACHABLE;
    return ASTAR_OK;
  }
  /* A goal in another component of the topology's own passability: no
  ** path, proven without a search (a partial search still runs: its answer
  ** is the best node of the start's component).  Per-query modifiers may
  ** cut a component further; those searches end as they always did. */
  s->apart = 0;
  if (goal_ok && s->start != s->goal) {
    if ((rc = astar_topology_connected(t, q->start, q->goal)) < 0) return s->status = rc;
    if (rc == 0) {
      if (!s->q.track_best) {
        s->status = ASTAR_UNREACHABLE;
        return ASTAR_OK;
      }
      s->apart = 1;
    }
  }
  if (!goal_ok) s->goal = -2; /* never reached; the search runs until empty */
  /* sparse state makes its slot table (and extras) before the first entry
  ** (relax_in probes it); dense state sizes its directory by the map */
  if (s->sparse ? (s->slots_cap == 0 && (rc = astar__slot_grow(s)) != ASTAR_OK) ||
                      (s->use_x && (rc = slotx_make(s)) != ASTAR_OK)
                : (rc = reserve(s, ops->span(t))) != ASTAR_OK)
    return s->status = rc;
  if ((rc = seed(s, s->start)) != ASTAR_OK) return s->status = rc;
  s->status = ASTAR_SEARCHING;
  return ASTAR_OK;
}

/*
** Distance searches: every source at cost 0, no goal, the zero heuristic;
** the search runs until nothing is left and then reports FOUND.  reverse
** relaxes each step backwards (from the node it enters to the node it
** leaves), so g is the cost from a node to its nearest source and the
** parent link is the first step to take toward it.
*/
int astar_search_begin_distances(astar_search *s, astar_topology *t,
                                 const int32_t *sources, size_t count,
                                 int reverse, const astar_query *q) {
  astar_query c = *q;
  int32_t n = t->ops->count(t);
  size_t i;
  int rc;
  s->status = ASTAR_ESTATE;
  s->topo = NULL;
  if (n == 0) return ASTAR_EINVAL;
  for (i = 0; i < count; i++)
    if (sources[i] < 0 || sources[i] >= n) return ASTAR_EINVAL;
  /* only the modifiers apply: the rest is set to what a distance search is */
  c.start = c.goal = 0;
  c.heuristic = ASTAR_H_ZERO;
  c.weight = 1.0;
  c.stop = ASTAR_STOP_EXPAND;
  c.tie_break = ASTAR_TIE_HIGH_G;
  c.track_best = 0;
  c.heuristic_fn = NULL;
  c.heuristic_ctx = NULL;
  c.algorithm = ASTAR_ALGO_ASTAR; /* every node's distance: no jumps */
  s->sx = s->sy = s->sz = s->gx = s->gy = s->gz = 0;
  if ((rc = begin_query(s, t, &c, reverse != 0)) != ASTAR_OK) return rc;
  if ((rc = reserve(s, t->ops->span(t))) != ASTAR_OK) return s->status = rc;
  s->start = -1;
  s->goal = -1;
  for (i = 0; i < count; i++) {
    int32_t v = t->ops->internal(t, sources[i]);
    if (!open_for(s, v, sources[i])) continue;
    if ((rc = seed(s, v)) != ASTAR_OK) return s->status = rc;
  }
  s->status = ASTAR_SEARCHING;
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* step                                                                       */
/* ------------------------------------------------------------------------ */

int astar_search_step(astar_search *s, uint64_t max_steps) {
  int rc;
  if (s->status != ASTAR_SEARCHING) return s->status;
  if (s->topo->version != s->version) return s->status = ASTAR_ECHANGED;
  rc = s->run(s, max_steps);
  /* a partial search toward another component: whatever ended it, the
  ** answer is proven (the budget only bounded the partial path) */
  if (s->apart && (rc == ASTAR_MAX_EXPANSIONS || rc == ASTAR_MAX_COST))
    rc = s->status = ASTAR_UNREACHABLE;
  return rc;
}

/* ------------------------------------------------------------------------ */
/* results                                                                    */
/* ------------------------------------------------------------------------ */

int astar_search_status(const astar_search *s) { return s->status; }
const astar_stats *astar_search_stats(const astar_search *s) { return &s->st; }
int astar_search_jps(const astar_search *s) { return s->jps; }
const astar_error_info *astar_search_error(const astar_search *s) { return &s->err; }

/* The internal id of external node `id` when this search has reached it;
** -1 otherwise. */
static int32_t reached(const astar_search *s, int32_t id) {
  int32_t v;
  if (s->status == ASTAR_ESTATE || id < 0 || id >= s->count) return -1;
  v = s->ops->internal(s->topo, id);
  return node_seen(s, v) ? v : -1;
}

/* The search-tree parent of reached internal node v (-1 at a root). */
static int32_t tree_parent(const astar_search *s, int32_t v) {
  int32_t link = *parent_at(s, v);
  if (link < 0 || s->jps) return link; /* jump points: the parent's id */
  return s->reverse ? s->ops->link_to(s->topo, v, link)
                    : s->ops->link_from(s->topo, v, link);
}

int32_t astar_search_path_length(const astar_search *s, int32_t to) {
  int32_t v = reached(s, to), len = 0;
  if (v < 0 || s->reverse) return 0;
  if (s->jps) return s->ops->jps->path(s, v, NULL, NULL, 0, NULL);
  for (; v >= 0; v = tree_parent(s, v)) len++;
  return len;
}

/* Step cost into v along its parent link `link`, as the search computed
** it. */
static double incoming(const astar_search *s, int32_t v, int32_t link) {
  double c = 0;
  if (s->use_cc) return *cc_at(s, v);
  s->ops->step_cost(s, v, link, &c);
  return c;
}

/* Internal ids nodes[0..len-1] (a path) to external ones, in place. */
static void path_external(const astar_search *s, int32_t *nodes, int32_t len) {
  int32_t i;
  if (s->ops->externals) s->ops->externals(s->topo, nodes, len);
  else
    for (i = 0; i < len; i++) nodes[i] = s->ops->external(s->topo, nodes[i]);
}

/* Reverses a[0..n-1] in place (a path walked from its end). */
static void reverse_ids(int32_t *a, int32_t n) {
  int32_t i, t;
  for (i = 0; i < n / 2; i++) t = a[i], a[i] = a[n - 1 - i], a[n - 1 - i] = t;
}

/* An A* path walked into nodes[0..len-1] goal first (internal ids): put in
** path order, so the costs can be summed forwards: the order in which the
** search accumulated g, so an intact chain sums to g exactly; a chain whose
** ancestors improved after it was built (possible when an inadmissible
** heuristic stops the search early) sums to its own, lower, true cost.
** Then links (may be NULL), the cost, and the external ids. */
static void path_finish(const astar_search *s, int32_t *nodes, int32_t *links, int32_t len,
                        double *cost) {
  int32_t i;
  double sum = 0;
  reverse_ids(nodes, len);
  for (i = 1; i < len; i++) {
    int32_t link = *parent_at(s, nodes[i]);
    if (links) links[i - 1] = link;
    sum += incoming(s, nodes[i], link);
  }
  path_external(s, nodes, len);
  if (cost) *cost = sum;
}

int32_t astar_search_path(const astar_search *s, int32_t to, int32_t *nodes,
                          int32_t *links, double *cost) {
  int32_t v = reached(s, to), len;
  if (v < 0 || s->reverse) return 0;
  if (s->jps) {
    /* the caller's room is the length: the jump points are counted first */
    len = s->ops->jps->path(s, v, NULL, NULL, 0, NULL);
    return s->ops->jps->path(s, v, nodes, links, len, cost); /* external ids */
  }
  /* internal ids first, in one walk from the end */
  for (len = 0; v >= 0; v = tree_parent(s, v)) nodes[len++] = v;
  path_finish(s, nodes, links, len, cost);
  return len;
}

/* Grows *arr (*cap entries) to hold at least need (the buffers of
** astar_search_path_fill: geometric, as astar__grow). */
static int fill_room(astar_alloc_fn alloc, void *ud, int32_t **arr, size_t *cap, size_t need) {
  return astar__grow(alloc, ud, (void **)arr, cap, need, sizeof(int32_t));
}

/* The path written where astar_search_path writes it, but into arrays that
** grow: the walk back writes while there is room (the arrays are kept
** across queries, so there nearly always is), and grows them in the walk
** (A*) or counts on and writes again (a jump point search's path, whose
** cells come from its jump points). */
int astar_search_path_fill(const astar_search *s, int32_t to, astar_alloc_fn alloc, void *ud,
                           int32_t **nodes, size_t *ncap, int32_t **links, size_t *lcap,
                           int32_t *len, double *cost) {
  int32_t v = reached(s, to), n;
  *len = 0;
  if (v < 0 || s->reverse) return ASTAR_OK;
  if (s->jps) {
    for (;;) { /* at most twice: the second time there is room */
      size_t room = *ncap;
      if (links && *lcap + 1 < room) room = *lcap + 1;
      if (room > INT32_MAX) room = INT32_MAX;
      n = s->ops->jps->path(s, v, *nodes, links ? *links : NULL, (int32_t)room, cost);
      if ((size_t)n <= room) break;
      if (fill_room(alloc, ud, nodes, ncap, (size_t)n) != ASTAR_OK ||
          (links && fill_room(alloc, ud, links, lcap, (size_t)n - 1) != ASTAR_OK))
        return ASTAR_ENOMEM;
    }
    *len = n; /* the jps ops write external ids */
    return ASTAR_OK;
  }
  for (n = 0; v >= 0; v = tree_parent(s, v)) {
    if ((size_t)n == *ncap && fill_room(alloc, ud, nodes, ncap, (size_t)n + 1) != ASTAR_OK)
      return ASTAR_ENOMEM;
    (*nodes)[n++] = v;
  }
  if (links && n > 1 && fill_room(alloc, ud, links, lcap, (size_t)n - 1) != ASTAR_OK)
    return ASTAR_ENOMEM;
  path_finish(s, *nodes, links ? *links : NULL, n, cost);
  *len = n;
  return ASTAR_OK;
}

int32_t astar_search_link(const astar_search *s, int32_t node) {
  int32_t v = reached(s, node);
  return v >= 0 && !s->jps ? *parent_at(s, v) : -1; /* jumps are no single link */
}

int32_t astar_search_parent(const astar_search *s, int32_t node) {
  int32_t v = reached(s, node), p;
  if (v < 0 || (p = tree_parent(s, v)) < 0) return -1;
  return s->ops->external(s->topo, p);
}

int32_t astar_search_goal(const astar_search *s) {
  return s->status == ASTAR_ESTATE || s->goal == -1 ? -1 : s->q.goal;
}

int32_t astar_search_best(const astar_search *s) {
  if (s->best < 0 || s->status == ASTAR_ESTATE) return -1;
  return s->ops->external(s->topo, s->best);
}

double astar_search_g(const astar_search *s, int32_t node) {
  int32_t v = reached(s, node);
  return v >= 0 ? node_at(s, v)->g : -1;
}

int astar_search_h(astar_search *s, int32_t node, double *h) {
  if (s->status == ASTAR_ESTATE || node < 0 || node >= s->count) return ASTAR_EINVAL;
  if (s->q.heuristic == ASTAR_H_CALLBACK) {
    if (s->q.heuristic_fn(s->q.heuristic_ctx, node, s->q.goal, h)) return ASTAR_ECALLBACK;
    if (!(*h >= 0) || !isfinite(*h))
      return fail(s, ASTAR_EHEURISTIC, ASTAR_CAUSE_HEURISTIC, node, -1, -1, *h);
    return ASTAR_OK;
  }
  *h = s->ops->estimate(s, s->ops->internal(s->topo, node));
  return ASTAR_OK;
}

const astar_trace_entry *astar_search_trace(const astar_search *s, size_t *n) {
  *n = s->ntrace;
  return s->trace;
}

const int32_t *astar_search_visited(const astar_search *s, size_t *n) {
  *n = s->nvisited;
  return s->visited;
}
