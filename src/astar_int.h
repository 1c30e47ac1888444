/*
** astar_int.h -- private layouts shared by the core files.  Not installed,
** not part of the API: only astar.h is public.
**
**   util.c        allocation helpers, status names
**   search.c      the search object: begin, step, results
**   engine.h      the search loop, heap and relaxation, as inline code that
**                 each topology instantiates with its own expansion
**   filter.h      the query's filter: forbidden nodes and step costs
**   graph.c       graph storage and the graph's topology operations
**   lattice.h/.c  the cell lattice under every grid: storage, edits, the
**                 change log, sized units, field repair, and the expansion
**                 template each grid shape instantiates per mode
**   grid.c        square grids: neighbourhood and diagonal rule, octile
**                 metric, line of sight, clearance of square units
**   hex.c         hex grids: the four layouts, hex metric, hex line of
**                 sight, clearance of hexagonal units
**   jps.c         jump point search on square grids
**   anyangle.c    segments over square grids: smoothing, Theta*, and the
**                 fast any-angle mode (the grid's search, pulled taut)
**   taut.c        a cell path pulled taut (the fast mode's turning points)
**   heuristics.c  precomputed tables (landmarks, clusters) and the audit
**   components.c  connected components of any topology
**
** A new topology is one more file like graph.c: its storage, an
** astar_topo_ops table and its expansions instantiated from engine.h.  A
** new grid shape is one more file like hex.c: a lat_shape (neighbourhood,
** metric, line of sight, clearance) and one line per mode instantiating
** lattice.h's expansion.
*/
#ifndef ASTAR_INT_H
#define ASTAR_INT_H

/* the core's own build: astar.h hides the public functions (see there) */
#ifndef ASTAR_CORE_BUILD
#define ASTAR_CORE_BUILD 1
#endif
#include "astar.h"

/* The internal functions (astar__*) are hidden in every build: wrap their
** declarations, after the header's #includes (a system function declared
** hidden would not link). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && !defined(__CYGWIN__)
#define ASTAR_INTERNAL_BEGIN _Pragma("GCC visibility push(hidden)")
#define ASTAR_INTERNAL_END _Pragma("GCC visibility pop")
#else
#define ASTAR_INTERNAL_BEGIN
#define ASTAR_INTERNAL_END
#endif

ASTAR_INTERNAL_BEGIN

#if defined(__GNUC__)
#define ASTAR_INLINE static inline __attribute__((always_inline))
#define ASTAR_LIKELY(x) __builtin_expect(!!(x), 1)
#define ASTAR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ASTAR_PREFETCH(p) __builtin_prefetch(p)
#else
#define ASTAR_INLINE static inline
#define ASTAR_LIKELY(x) (x)
#define ASTAR_UNLIKELY(x) (x)
#define ASTAR_PREFETCH(p) ((void)0)
#endif

#define ASTAR_SQRT2 1.41421356237309504880

/* astar_topo_ops.heuristics: the bit of built-in heuristic h */
#define HEURISTIC_BIT(h) (1u << (unsigned)(h))
/* the heuristics of positions in space (graphs, square grids) */
#define HEURISTICS_SPATIAL \
  (HEURISTIC_BIT(ASTAR_H_ZERO) | HEURISTIC_BIT(ASTAR_H_EUCLIDEAN) | \
   HEURISTIC_BIT(ASTAR_H_MANHATTAN) | HEURISTIC_BIT(ASTAR_H_OCTILE) | \
   HEURISTIC_BIT(ASTAR_H_CHEBYSHEV) | HEURISTIC_BIT(ASTAR_H_BISECTOR) | \
   HEURISTIC_BIT(ASTAR_H_FULL_BISECTOR))

/* memory (util.c) --------------------------------------------------------- */

/* Allocator calls go through here so a NULL allocator means realloc/free. */
void *astar__mem(astar_alloc_fn f, void *ud, void *p, size_t osize,
                 size_t nsize);
/* Grows *arr (holding *cap elements of `size` bytes) to at least `need`
** elements, geometrically.  0 on success; ENOMEM leaves *arr and *cap as they
** were.  New elements are uninitialised. */
int astar__grow(astar_alloc_fn f, void *ud, void **arr, size_t *cap,
                size_t need, size_t size);
/* The same to exactly `need` elements: for arrays sized by the topology,
** where doubling would only waste memory. */
int astar__resize(astar_alloc_fn f, void *ud, void **arr, size_t *cap,
                  size_t need, size_t size);
/* Frees an array grown by the two above and zeroes its capacity. */
void astar__release(astar_alloc_fn f, void *ud, void **arr, size_t *cap,
                    size_t size);

/* topologies -------------------------------------------------------------- */

typedef struct astar_topo_ops astar_topo_ops;

/* Connected components of a topology (components.c): labels per external
** node (-1: impassable), a union-find over labels for merges since the last
** relabel, and the topology version they describe. */
typedef struct astar_comps {
  int32_t *label;
  size_t label_cap;
  int32_t *up, *size; /* union-find over labels (union by size) */
  size_t up_cap, size_cap;
  int32_t nlabels, count; /* labels in use; nodes labelled */
  uint32_t version;
  int valid;
  int uniform;       /* valid without arrays: every passable node
                             ** is in one component (a fresh grid) */
  uint32_t relabels; /* full relabels so far (tests, benchmarks) */
} astar_comps;

/* The header every topology starts with (graph.c, lattice.h): a pointer to an
** astar_topology is a pointer to the graph or grid itself.  A topology
** zeroes it (memset) and frees comps with astar__comp_free. */
struct astar_topology {
  const astar_topo_ops *ops;
  astar_alloc_fn alloc;
  void *ud;
  uint32_t version;  /* bumped by every mutation */
  int lock;          /* > 0 while searched: mutators refuse */
  astar_comps comps; /* components.c */
};

/* components (components.c) ----------------------------------------------- */

/* A topology whose passable nodes are known to form one component (a new
** grid, all open) says so at creation: no labels until something closes. */
void astar__comp_uniform(astar_topology *t);
/* Brings the labels up to date (a full relabel when they are not); ENOMEM. */
int astar__comp_refresh(astar_topology *t);
/* After a mutation that only added steps bumped the version: labels current
** before it stay current (then report the new steps with the two below). */
void astar__comp_kept(astar_topology *t);
/* A mutation that shares the version before it (a batch's later edits,
** astar_grid_edits_begin): the labels fall behind as a bump would leave
** them, so that astar__comp_kept after it keeps them current only for a
** change that merely added steps. */
void astar__comp_touch(astar_topology *t);
/* External node v was opened (or added): a label of its own. */
void astar__comp_node(astar_topology *t, int32_t v);
/* A step between external nodes a and b exists now: their labels merge. */
void astar__comp_union(astar_topology *t, int32_t a, int32_t b);
/* Closing external node v without a relabel (graphs: graph.c's bounded
** check).  After the mutation bumped the version: whether the labels were
** current just before it; then, with the check's findings, each side that
** split off the node's component gets a fresh label (ENOMEM drops the
** labels), and astar__comp_closed makes them current with v impassable. */
int astar__comp_was_current(const astar_topology *t);
int32_t astar__comp_split(astar_topology *t, const int32_t *side, size_t n);
void astar__comp_closed(astar_topology *t, int32_t v);
void astar__comp_free(astar_topology *t);
size_t astar__comp_bytes(const astar_topology *t);

/* Ability: components kept by the topology itself (astar_topo_ops.conn;
** NULL: components.c's labels over each_step).  A grid keeps them per
** sector (sectors.c), so an edit costs its sector, never the map. */
typedef struct astar_conn_ops {
  int (*refresh)(astar_topology *t);                         /* up to date now; ENOMEM */
  int (*current)(const astar_topology *t);                   /* no work pending */
  int (*connected)(astar_topology *t, int32_t a, int32_t b); /* checked ids */
  size_t (*bytes)(const astar_topology *t);
  void (*free)(astar_topology *t);
  /* work done so far (tests): 0 the local relabels, 1 the graph's */
  uint32_t (*count)(const astar_topology *t, int which);
  /* astar_topology_would_disconnect, ids checked, node passable, n >= 2 */
  int (*would_disconnect)(astar_topology *t, int32_t node, const int32_t *ids, size_t n);
} astar_conn_ops;

/* A search loop instantiated for one topology and one kind of expansion
** (engine.h: search_loop). */
typedef int (*astar_run_fn)(astar_search *s, uint64_t max_steps);

/* One step of a topology, for the audit and the geometric bound: external
** ids and the step's own cost (no query modifiers). */
typedef void (*astar_step_visit)(void *ctx, int32_t from, int32_t to,
                                 double cost);

/* The loops a topology instantiates (engine.h: search_loop), one per kind
** of expansion: ops.run[mode].  NULL: the topology has no such mode. */
enum astar_run_mode {
  ASTAR_RUN_GENERAL = 0, /* forward, with every query option */
  ASTAR_RUN_PLAIN,       /* forward fast path (search.c: query_plain) */
  ASTAR_RUN_REVERSE,     /* distance searches relaxing steps backwards */
  ASTAR_RUN_SIZED,       /* units larger than one node */
  ASTAR_RUN_SIZED_REVERSE,
  ASTAR_RUN_MODES
};

/* Ability: jump point search (astar_topo_ops.jps; NULL where none). */
typedef struct astar_jps_ops {
  /* why jump point search cannot serve q (NULL: it can) */
  const char *(*refusal)(const astar_topology *t, const astar_query *q);
  astar_run_fn run, run_plain; /* its loops (general and fast path) */
  astar_run_fn run_sized;      /* units of size > 1 (query.size) */
  /* the path to reached jump point v: its length, and with nodes the
  ** external ids (every cell), links (len - 1 step directions, may be
  ** NULL) and the cost summed step by step in path order; a path longer
  ** than cap (nodes' room; links has cap - 1) is only counted: the length
  ** returned is then above cap and no cell is written (the jump points
  ** may be, within cap) */
  int32_t (*path)(const astar_search *s, int32_t v, int32_t *nodes, int32_t *links,
                  int32_t cap, double *cost);
  /* the precomputed mode (jpsplus.c): why it cannot serve q, a query that
  ** refusal above lets JPS serve (its own conditions only: the table, the
  ** rule, the size; NULL: it can), and its loops */
  const char *(*plus_refusal)(const astar_topology *t, const astar_query *q);
  int (*plus_auto)(const astar_topology *t); /* AUTO takes it where it serves */
  astar_run_fn run_plus, run_plus_plain;
  /* what run_sized needs for units of size k, built (ENOMEM) */
  int (*prepare_sized)(astar_topology *t, int32_t k);
} astar_jps_ops;

/* Ability: units larger than one node (astar_query.size > 1;
** astar_topo_ops.units, NULL where none).  Their loops are run[SIZED] and
** run[SIZED_REVERSE], instantiated apart so that one-node queries run
** exactly the code they ran before. */
typedef struct astar_unit_ops {
  /* brings what the topology needs for them up to date (ENOMEM) */
  int (*prepare)(astar_topology *t);
  /* sets up the search for the query's unit (ENOMEM) */
  int (*begin)(astar_search *s);
  /* whether the query's unit may stand at internal node v (all of it open
  ** and not forbidden) */
  int (*holds)(const astar_search *s, int32_t v);
} astar_unit_ops;

/*
** What the generic code needs from a topology.  Node ids come in two
** spaces: external ids (0..count - 1, what callers see) and internal ids
** (0..span - 1, what the search state is indexed by: a grid pads its cells
** with a blocked border so its loop never tests bounds).  Nothing here is
** called per neighbour: the hot loops are the `run` functions, each an
** instantiation of engine.h's loop with the topology's expansion inlined.
** Every topology has the members down to `run`; the abilities after it are
** NULL where the topology lacks them (astar_topology_abilities), and
** generic code asks them, never the kind.
*/
struct astar_topo_ops {
  const char *kind;   /* "graph", "grid", "hex" */
  const char *noun;   /* "a graph", "a hex grid": messages about abilities */
  unsigned abilities; /* the astar_ability bits not told by a hook below */
  int32_t (*count)(const astar_topology *t);
  size_t (*span)(const astar_topology *t);
  int32_t (*internal)(const astar_topology *t, int32_t ext);
  int32_t (*external)(const astar_topology *t, int32_t v);
  /* external() over ids[0..n-1] in place, for a path (each node next to
  ** the one before: grids walk the row instead of finding it per cell);
  ** NULL: external() node by node */
  void (*externals)(const astar_topology *t, int32_t *ids, int32_t n);
  int (*passable)(const astar_topology *t, int32_t v); /* internal */
  /* the tag a query's filter reads at internal node v (grids: the cell's
  ** tag; NULL: nodes carry no tags, a graph's are on its edges) */
  int32_t (*node_tag)(const astar_topology *t, int32_t v);
  void (*position)(const astar_topology *t, int32_t v, double xyz[3]);
  /* brings derived structures (adjacency) up to date; ENOMEM */
  int (*prepare)(astar_topology *t, int reverse);
  /* the other end of internal node v's link: the node it was reached from
  ** (forward) or the node the step leads to (reverse) */
  int32_t (*link_from)(const astar_topology *t, int32_t v, int32_t link);
  int32_t (*link_to)(const astar_topology *t, int32_t v, int32_t link);
  /* the query's cost of the step into internal node v by link (path costs
  ** when no cost callback recorded them); 0 when the step is forbidden */
  int (*step_cost)(const astar_search *s, int32_t v, int32_t link, double *c);
  /* every step of the topology, with its own cost */
  void (*each_step)(const astar_topology *t, astar_step_visit visit, void *ctx);
  int (*default_heuristic)(const astar_topology *t);
  /* the built-in heuristics that mean something here: bit h for
  ** astar_heuristic h (HEURISTIC_BIT); others are refused by begin */
  unsigned heuristics;
  /* the built-in estimate at internal node v, as the run functions compute
  ** it (seeding the start node, astar_search_h) */
  double (*estimate)(const astar_search *s, int32_t v);
  /* the heuristic geometry: a distance between two nodes (external ids)
  ** that bounds a step's length (its value over a step <= the step's cost
  ** at unit cost: Euclidean on graphs, octile on square grids, hex steps);
  ** precomputed tables scale it into an admissible bound */
  double (*distance)(const astar_topology *t, int32_t a, int32_t b);
  double octile_k; /* octile's diagonal extra (grids: their own) */
  /* the topology's part of the fast-path decision (the query's part is
  ** search.c's query_plain); NULL: no fast path */
  int (*plain)(const astar_topology *t);
  size_t (*bytes)(const astar_topology *t);
  astar_run_fn run[ASTAR_RUN_MODES];
  /* abilities */
  const astar_jps_ops *jps;
  const astar_unit_ops *units;
  const astar_conn_ops *conn;
};

/* The square grid's move rule (lattice.h: lat_rule_moves), for
** anyangle.c: `open` has bit d set when the neighbour in direction d (E, W,
** S, N, SE, NE, SW, NW) may be entered; the result has bit d set when the
** step is allowed. */
unsigned astar__grid_rule_moves(const astar_grid *gr, unsigned open);
/* 1 when the segment between the centres of (x0, y0) and (x1, y1) passes
** (grid.c; for anyangle.c's uniform costs): no blocked or forbidden cell
** (forbid: per cell id, or NULL), corners by the strict or the line of
** sight rule.  The cells must be inside the (square) grid. */
int astar__grid_pass(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                     const double *forbid, int strict);
/* The steps out of cell (x, y) of a square grid under its rule, bit d as
** in astar__grid_rule_moves, with forbidden cells (forbid, or NULL) shut. */
unsigned astar__grid_moves(const astar_grid *gr, int32_t x, int32_t y, const double *forbid);
/* 1 when a cell of the square grid's 3 x 3 block round (x, y) is blocked
** (grid.c; the cells a taut path turns at). */
int astar__grid_walled(const astar_grid *gr, int32_t x, int32_t y);
/* Pulls the cell path cells[0..n-1] of a square grid taut (taut.c): writes
** its turning points over cells[0..] (the ends stay) and returns their
** count; consecutive points pass astar__grid_pass(forbid, strict), and the
** points' length is at most the cell path's. */
int32_t astar__grid_taut(const astar_grid *gr, const double *forbid, int strict, int32_t *cells,
                         int32_t n);
/* Theta* in the lane of cells near the cell path cells[0..n-1] (taut.c):
** when its path is shorter than the taut points pts[0..m-1], writes its
** turning points into out (room for 2n) and returns their count, else 0.
** The scratch arrays hold a value per cell of the grid (cells); the lane
** moves *gen by 2 and stamps with the two values (stamps never exceed *gen). */
typedef struct astar__lane {
  double *g, *f;
  int32_t *parent, *hpos, *heap;
  uint32_t *stamp, *gen;
  size_t cells;
} astar__lane;
int32_t astar__grid_lane(const astar_grid *gr, const double *forbid, int strict,
                         const astar__lane *l, const int32_t *cells, int32_t n,
                         const int32_t *pts, int32_t m, int32_t *out);
/* The windows of anyangle.c's refinement (taut.c): at[i * (2r + 1)^2 + j]
** is the cell of choice j round pts[i] (offset (j % (2r + 1) - r,
** j / (2r + 1) - r)), -1 where there is none; walled: the fast mode's
** rules (taut.c). */
void astar__refine_choices(const astar_grid *gr, int walled, const int32_t *pts, int32_t n,
                           int32_t r, int32_t *at);
/* The shortest path through centres over the cells near convex corners
** (anyexact.c): when it is shorter than the points pts[0..m-1] (the ends
** kept), writes its turning points into out (room for `room`) and returns
** their count; 0 when it is not shorter, or when its work (the searched
** box's cells, vertices looked at, segment tests) would pass its budget (a
** share of `expanded`, the cell search's expansions, plus a floor on small
** grids), or out of memory.  Scratch as for the lane (stamps: *gen moves
** by 2). */
int32_t astar__grid_exact(const astar_grid *gr, const double *forbid, int strict,
                          const astar__lane *l, astar_alloc_fn alloc, void *ud,
                          const int32_t *pts, int32_t m, uint64_t expanded, int32_t *out,
                          int32_t room);

/* search ------------------------------------------------------------------ */

/* Per-node state read on every relaxation, valid only when stamp == the
** search's generation: 16 bytes, four to a cache line.  The parent link
** (written only when g improves) lives beside it in the same page. */
typedef struct astar_node {
  double g;
  uint32_t stamp;
  int32_t pos; /* position in the open heap; -1 when not open */
} astar_node;

/*
** Search state that follows the work.  A query's per-node state lives in
** pages of ASTAR_PAGE nodes (internal ids v >> ASTAR_PAGE_BITS), allocated
** the first time the search touches one of their nodes; the directory of
** pages is the only thing sized by the topology (16 bytes per page: its
** pointer, and a base address that spares node_at a mask).  So a
** query that expands 300 nodes of a 4096 x 4096 grid owns a few dozen pages,
** not 300 MB, and a new query clears nothing: a fresh page is zeroed (stamp
** 0, which no live generation uses) and the generation bump retires every
** stamp of the previous query.  engine.h's accessors (node_at, parent_at,
** node_touch, ...) are the only way the loops reach the state.
**
** 64 nodes a page (1.25 KB): on a grid, pages are runs of 64 cells of a
** row, so a search's pages cover about the rows it visits; smaller pages
** waste less around the frontier but grow the directory (4 MB for 4096 x
** 4096 at 64, half of it never touched) and the share of page misses.
*/
#ifndef ASTAR_PAGE_BITS
#define ASTAR_PAGE_BITS 6
#endif
#define ASTAR_PAGE (1 << ASTAR_PAGE_BITS)
#define ASTAR_PAGE_MASK (ASTAR_PAGE - 1)

/* Pages are carved from blocks (search.c: slab_take) of 4, 8, ... up to
** 256 pages, freed together: a search that touched ten thousand pages
** frees about fifty blocks, not ten thousand pages, when it is freed. */
typedef struct astar_slab {
  struct astar_slab *next;
  size_t cap, used, bytes; /* pages it holds, pages handed out, its size */
} astar_slab;

typedef struct astar_page {
  astar_node ns[ASTAR_PAGE];
  int32_t parent[ASTAR_PAGE]; /* the link each node was reached by */
} astar_page;

/* What only some queries keep per node, in pages of their own allocated
** beside the main ones when the query needs them (use_x). */
typedef struct astar_xpage {
  double hc[ASTAR_PAGE];    /* callback heuristic values (cached) */
  double cc[ASTAR_PAGE];    /* incoming step cost when a cost_fn runs */
  int32_t gpos[ASTAR_PAGE]; /* by-g heap positions (stop = optimal) */
} astar_xpage;

/* An entry of the slot table (sparse state, engine.h): node's state
** itself, which is this query's when its stamp is the search's generation
** (an entry of an older query is empty).  24 bytes. */
typedef struct astar_slot {
  astar_node n;   /* g, stamp, heap position */
  int32_t node;   /* the internal node id */
  int32_t parent; /* the link it was reached by */
} astar_slot;

/* What only some queries keep per entry of the slot table (astar_xpage's
** fields), in an array beside it. */
typedef struct astar_slotx {
  double hc, cc;
  int32_t gpos, unused;
} astar_slotx;

/* 16 bytes.  fkey is the bit pattern of f (f >= 0 and never NaN, and the
** bits of non-negative doubles order like their values, so the heap compares
** integers); then a 32-bit tie key, smaller first: the float bits of h for
** high_g (with f equal, larger g is smaller h), a sequence number for fifo,
** 0 in the by-g heap. */
typedef struct astar_heap_item {
  uint64_t fkey;
  int32_t node;
  uint32_t k;
} astar_heap_item;

typedef struct astar_heap {
  astar_heap_item *a;
  size_t n, cap;
} astar_heap;

struct astar_search {
  astar_alloc_fn alloc;
  void *ud;
  astar_page **pages;       /* the directory: NULL where not touched */
  size_t pages_cap, npages; /* directory entries; pages allocated */
  uintptr_t *nsb;           /* per page: the address of its node 0 minus
                                ** the page's first id times the node size,
                                ** so node v is at nsb[v >> bits] + v * 16
                                ** (no mask per access); pages_cap long */
  size_t nsb_cap;
  astar_xpage **xpages; /* the extras' directory (pages_cap long
                                ** once any query used it) */
  size_t xpages_cap, nxpages;
  /* sparse state (jump point searches, engine.h): the state index of a
  ** node is its entry in the slot table, open addressing with linear
  ** probing, slots_cap a power of two (0: none yet), at most half of it
  ** used (slot_room); slotx beside it (slotx_cap entries) once a query kept
  ** extras */
  astar_slot *slots;
  size_t slots_cap, slot_mask; /* slot_mask: slots_cap - 1 */
  int slot_shift;              /* 32 - log2(slots_cap): slot_home's top bits */
  astar_slotx *slotx;
  size_t slotx_cap;
  int32_t nslots, slot_room;         /* entries this query took; at most */
  int32_t cur_node, cur_k;           /* the node being expanded and its entry (-1) */
  int sparse;                        /* this query keeps sparse state (s->jps) */
  int lazy;                          /* its open list is a lazy heap (engine.h) */
  struct astar_slab *slabs, *xslabs; /* the blocks pages are carved from */
  size_t slab_bytes;                 /* their size in all */
  int use_x;                         /* this query keeps extras (hc, cc, gpos) */
  int use_cc;                        /* this query keeps cc (it has a cost_fn) */
  double *scratch;                   /* audits: h per node (owned here: the
                                ** heuristic may longjmp out of an audit) */
  size_t scratch_cap;
  int32_t *ids; /* audits: passable nodes (same reason) */
  size_t ids_cap;
  int32_t *foot; /* sized units on grids: the unit's cells (lattice.h) */
  size_t foot_cap;
  int32_t nfoot; /* ... how many (0: not listed, none needed) */
  astar_heap open, byg;
  uint32_t gen;
  astar_trace_entry *trace;
  size_t ntrace, trace_cap;
  int32_t *visited;
  size_t nvisited, visited_cap;
  /* the current query */
  int status;
  astar_topology *topo;
  const astar_topo_ops *ops;
  astar_run_fn run;     /* the loop this query steps with */
  int jps;              /* jump point search: parent[v] is the
                                ** internal id of v's parent jump point */
  int32_t count;        /* the topology's node count at begin */
  uint32_t version;     /* the topology's version at begin */
  astar_query q;        /* heuristic resolved (never DEFAULT) */
  int shuts;            /* the query forbids nodes (filter.h): a forbid
                                ** array, or a forbidding tag factor where
                                ** nodes carry tags */
  int32_t start, goal;  /* internal ids; goal -1: distances, -2:
                                ** impassable goal of a partial search */
  int reached;          /* the goal has a g value */
  int apart;            /* partial search, goal in another component */
  int reverse;          /* distance search relaxing steps backwards */
  double gx, gy, gz;    /* goal position */
  double sx, sy, sz;    /* start position */
  double ux, uy, uz;    /* unit vector start -> goal; 0 if they meet */
  double octile_k;      /* octile's diagonal extra: grid or true sqrt2 */
  astar_heap_item next; /* the bypass slot (node -1 when empty) */
  uint32_t seq;         /* FIFO tie-break counter (saturates) */
  astar_stats st;
  int32_t best; /* reached node with the smallest h */
  double best_h;
  int pruned; /* max_cost cut something off */
  astar_error_info err;
};

/* Repairs of running searches (repair.c; astar_search_repair).  reset:
** takes reached node v out of the search (off the open list; its parent
** link stays, so its children are found by it) and queues it in s->ids
** (*n of them); EINVAL past `most` (beginning again is cheaper).  reopen:
** puts reached, closed node v back on the open list at its g.  The graph's
** repair (graph.c) is astar_search_repair's on graphs; search_regrow sizes
** the search for nodes the topology gained since it began (search.c). */
int astar__repair_reset(astar_search *s, int32_t v, size_t *n, size_t most);
int astar__repair_reopen(astar_search *s, int32_t v);
int astar__graph_repair(astar_search *s, const int32_t *changed, size_t nchanged,
                        const int32_t *sources, size_t nsources, size_t *nreset);
int astar__search_regrow(astar_search *s);
/* Sizes the search's page directories for np pages, the new entries empty
** (search.c; ENOMEM leaves them as they were). */
int astar__search_reserve(astar_search *s, size_t np);
/* Whether the jump point loops keep sparse state (jps.c; 0 in the
** single-file build, see jps.h). */
extern const int astar__jps_sparse;

ASTAR_INTERNAL_END

#endif
