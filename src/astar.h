/* astar.h -- the public C API of the astar pathfinding core.
**
** The core is plain C99 with no Lua dependency: a C game engine can embed it
** directly; the Lua module (lastar.c) is one client among others.
**
** Conventions
** - Ids are 0-based here (the Lua binding adds 1).  Graph nodes and edges are
**   numbered in creation order; grid cells are numbered y * width + x.
** - Functions that can fail return an astar_status (< 0 is an error) and leave
**   the object unchanged on failure.  Outputs are written only on success.
** - All memory comes from the allocator given at creation (same contract as
**   lua_Alloc: nsize == 0 frees and returns NULL; otherwise realloc semantics,
**   NULL on failure).  Pass NULL for the C library's realloc/free.
** - Nothing is global; objects never share state.  An object may be used from
**   one thread at a time.
** - A search (astar_search) never owns topology memory: the topology must
**   outlive every search begun on it.  A search holds no memory that is not
**   reachable from the astar_search object, so a callback may longjmp out of
**   a search (a Lua error does); the search object stays valid and can begin
**   a new query, and must be freed as usual.
**
** Layout of this header: topologies (the interface every search takes), the
** two topologies (graphs, grids), queries and searches, precomputed
** heuristics and audits. */
#ifndef ASTAR_H
#define ASTAR_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* Symbols (doc/reference.md, "Symbols and linkage"): external names start
** with astar_ (astar__ inside the core), macros with ASTAR_.  Built as the
** core (ASTAR_CORE_BUILD), the functions are hidden from outside the
** program or shared object they link into (GCC, Clang; ELF, Mach-O); to
** build the core as a shared library of its own, use -DASTAR_VISIBLE. */
#if defined(ASTAR_CORE_BUILD) && !defined(ASTAR_VISIBLE) && \
    (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && !defined(__CYGWIN__)
#define ASTAR_HIDDEN_API 1
#pragma GCC visibility push(hidden)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the core, one place for the whole project (the Lua module,
** the rockspecs and the CHANGELOG must agree: `make release-check`). */
#define ASTAR_VERSION_MAJOR 0
#define ASTAR_VERSION_MINOR 2
#define ASTAR_VERSION_PATCH 0
#define ASTAR_VERSION "0.2.0"

/* The version the core was built as ("0.2.0"): compare it with ASTAR_VERSION
** to detect a header that does not match the compiled core. */
const char *astar_version(void);

typedef void *(*astar_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

typedef enum astar_status {
  ASTAR_OK = 0,             /* success (mutators, queries of state) */
  ASTAR_FOUND = 1,          /* search finished with a path */
  ASTAR_SEARCHING = 2,      /* step budget spent; call astar_search_step again */
  ASTAR_UNREACHABLE = 3,    /* no path: the open list ran empty */
  ASTAR_MAX_EXPANSIONS = 4, /* query.max_expansions reached before the goal */
  ASTAR_MAX_COST = 5,       /* no path within query.max_cost */
  ASTAR_ENOMEM = -1,        /* allocation failed; the object is unchanged */
  ASTAR_EINVAL = -2,        /* bad argument (id out of range, NaN cost, ...) */
  ASTAR_EHEURISTIC = -3,    /* a heuristic gave a value that is not finite >= 0 */
  ASTAR_ECOST = -4,         /* a step cost came out NaN, negative or infinite */
  ASTAR_ECALLBACK = -5,     /* a callback returned non-zero (asked to abort) */
  ASTAR_ECHANGED = -6,      /* the topology changed since the search began */
  ASTAR_EBUSY = -7,         /* mutation of a locked (being searched) topology */
  ASTAR_ESTATE = -8,        /* call out of order (step before begin, ...) */
  ASTAR_EOVERFLOW = -9      /* a path's cost summed to infinity */
} astar_status;

/* Human-readable name of a status ("found", "unreachable", "out of memory"...). */
const char *astar_status_name(int status);

/* ==== Topologies ==== */

/*
** A topology is anything a search can walk: a graph or a grid, seen through
** one interface.  Searches, distance fields, precomputed heuristics and
** audits take an astar_topology; get one from astar_graph_topology or
** astar_grid_topology (the same object, viewed generically: it lives and
** dies with the graph or grid).  Node ids are 0..node_count - 1: graph node
** ids, or grid cell ids.
*/
typedef struct astar_topology astar_topology;

/* What a topology can do beyond searching (astar_topology_abilities): a
** bit for each ability; generic code asks instead of comparing kinds. */
typedef enum astar_ability {
  ASTAR_CAN_CELLS = 1,    /* cells (astar_grid): ids y * width + x, penalty, forbid */
  ASTAR_CAN_UNITS = 2,    /* units larger than one node (astar_query.size) */
  ASTAR_CAN_JPS = 4,      /* jump point search (astar_jps_refusal) */
  ASTAR_CAN_REPAIR = 8,   /* distance fields repair (astar_grid_repair_distances) */
  ASTAR_CAN_SEGMENTS = 16 /* segments: smoothing, any-angle (astar_grid_walk ...) */
} astar_ability;

/* The astar_ability bits of t. */
unsigned astar_topology_abilities(const astar_topology *t);
/* The largest astar_query.size the topology takes: ASTAR_MAX_UNIT on
** grids, 1 where units are one node. */
int32_t astar_topology_max_size(const astar_topology *t);
/* "graph", "grid" or "hex". */
const char *astar_topology_kind(const astar_topology *t);
int32_t astar_topology_node_count(const astar_topology *t);
/* 1 when a path may pass through the node (an enabled node, an open cell),
** 0 when not, EINVAL on a bad id. */
int astar_topology_passable(const astar_topology *t, int32_t node);
/* [out] xyz: the position the distance heuristics use (grid cells: column,
** row, 0).  EINVAL on a bad id. */
int astar_topology_position(const astar_topology *t, int32_t node, double xyz[3]);
/* The heuristic a query gets when it asks for ASTAR_H_DEFAULT: euclidean on
** graphs; octile on grids, manhattan on grids without diagonal steps. */
int astar_topology_default_heuristic(const astar_topology *t);
/* 1 when built-in heuristic h (an astar_heuristic >= 0, not CALLBACK)
** applies to the topology, 0 when a query asking for it would be refused
** (EINVAL): "hex" applies to hex grids only; manhattan, octile and
** chebyshev to graphs and square grids only. */
int astar_topology_accepts(const astar_topology *t, int h);
/* Bytes the topology holds (its arrays and the struct). */
size_t astar_topology_bytes(const astar_topology *t);

/* Brings the structures forward searches with query q read up to date (a
** graph's adjacency; for q->size > 1 a grid's clearance layer; q may be
** NULL).  Searches do it themselves; call it once before searching from
** several threads, which then only read the topology (while no thread
** mutates it).  ENOMEM; EINVAL for a size the topology does not take. */
struct astar_query; /* below, with the queries */
int astar_topology_prepare(astar_topology *t, const struct astar_query *q);

/* While a topology is locked (delta +1 / -1; locks nest) every mutator
** returns EBUSY: a host locks it around a search whose callbacks run
** foreign code.  The version changes with every mutation; a search begun on
** an older version refuses to step (ECHANGED). */
void astar_topology_lock(astar_topology *t, int delta);
int astar_topology_locked(const astar_topology *t);
uint32_t astar_topology_version(const astar_topology *t);

/* Connected components under the topology's own passability (open cells
** and the diagonal rule, enabled nodes and edges; directed graphs: weak
** components).  1 when a path may exist between nodes a and b, 0 when none
** can (either is impassable, or they are in different components): 0 is a
** proof.  EINVAL on a bad id, ENOMEM.  Grids keep labels per sector
** (doc/reference.md, grid:connected: sizes, costs): an edit marks its
** sector (a door closed on a small part of it labels that part apart at
** once, O(that part)), the next call relabels the marked sectors and the
** small sector graph, never the grid (a new grid's first edit writes them,
** O(cells), once; astar_grid_set_blocked_all builds them in its call).  Graphs label on first use and relabel, O(nodes +
** steps), at the next call after a node is disabled.  astar_search_begin
** reads the labels: a goal in another component is UNREACHABLE at once.
** The first call after a change writes them: a host searching from several
** threads calls astar_topology_components_refresh first. */
int astar_topology_connected(astar_topology *t, int32_t a, int32_t b);
/* Brings the labels up to date now; ENOMEM. */
int astar_topology_components_refresh(astar_topology *t);
/* 1 when the labels describe the topology as it is (no work pending). */
int astar_topology_components_current(const astar_topology *t);
/* Whether making `node` impassable would separate two of the nodes
** ids[0..n) that are connected now (the node itself counts as separated
** from any node connected to it): 1, 0 (also when the node is impassable
** already, or n < 2), EINVAL on a bad id, ENOMEM.  Nothing of the
** topology changes: not its cells or nodes, not its version (for n >= 2
** and the node passable, the labels are brought up to date first).  Grids
** relabel the node's sector (S x S cells) and the sector graph in scratch,
** O(S * S + (w / S) * (h / S) + n log n); graphs take one pass over their
** edges, O(nodes + edges). */
int astar_topology_would_disconnect(astar_topology *t, int32_t node, const int32_t *ids, size_t n);

/* ==== Directed weighted multigraph ==== */

typedef struct astar_graph astar_graph;

/* NULL when out of memory. */
astar_graph *astar_graph_new(astar_alloc_fn alloc, void *ud);
/* Frees everything; NULL is ignored. */
void astar_graph_free(astar_graph *g);
astar_topology *astar_graph_topology(astar_graph *g);

/* [in] x, y, z: position used by the distance heuristics; any finite values.
** [out] id: the new node's id (node_count - 1).  Nodes start enabled.
** Fails with EINVAL on a non-finite coordinate or when INT32_MAX nodes exist. */
int astar_graph_add_node(astar_graph *g, double x, double y, double z, int32_t *id);

/* A directed edge from -> to.  Several edges may join the same pair: they
** stay distinct and a path names the one it used.
** [in] cost: finite and >= 0.   [in] tag: >= 0; 0 means "no tag".  Tags are
** small integers the caller interns (the Lua binding maps names to them);
** per-query multipliers are looked up by tag (astar_query.tag_factor).
** [out] id: the new edge's id. */
int astar_graph_add_edge(astar_graph *g, int32_t from, int32_t to, double cost,
                         int32_t tag, int32_t *id);

int32_t astar_graph_node_count(const astar_graph *g);
int32_t astar_graph_edge_count(const astar_graph *g);

/* [out] xyz: the node's position.  EINVAL on a bad id. */
int astar_graph_position(const astar_graph *g, int32_t node, double xyz[3]);
/* Any output pointer may be NULL.  EINVAL on a bad id. */
int astar_graph_edge(const astar_graph *g, int32_t edge, int32_t *from,
                     int32_t *to, double *cost, int32_t *tag);
/* [in] cost: finite and >= 0. */
int astar_graph_set_cost(astar_graph *g, int32_t edge, double cost);
/* A disabled node is impassable: no path enters, leaves or ends at it. */
int astar_graph_set_enabled(astar_graph *g, int32_t node, int enabled);
/*
** The change log of a graph, for repairing running searches
** (astar_search_repair).  Once tracking is on, the graph keeps what its
** last `cap` changes changed (add_node, add_edge, set_cost and
** set_enabled that changed something; each change is a version of its
** own).  A larger cap starts a larger, empty log.  ENOMEM.
*/
int astar_graph_track_changes(astar_graph *g, size_t cap);
/* [out] what[0..*n-1]: what changed since version `since`, oldest first:
** a node (its id, >= 0) or an edge (-1 - its id).  EOVERFLOW when the log
** does not reach back that far or more than `cap` changes were made.
** [out] n: 0 when nothing changed. */
int astar_graph_changes(const astar_graph *g, uint32_t since, int32_t *what, size_t cap,
                        size_t *n);
/* 1 enabled, 0 disabled, EINVAL on a bad id. */
int astar_graph_enabled(const astar_graph *g, int32_t node);

/* ==== Grids of cells: square and hex (implicit graphs; no edge arrays) ==== */

/* A grid is a width x height lattice of cells, each open or blocked, with a
** cost (1 unless set) and a tag (0 unless set).  Its shape says which cells
** neighbour which and how far apart they are:
**   - square grids (astar_grid_new): 4 neighbours, or 8 with diagonal steps
**     under a diagonal rule; a cardinal step is 1 long, a diagonal one
**     ASTAR_GRID_DIAG;
**   - hex grids (astar_hex_new): 6 neighbours in offset coordinates, as in
**     the usual hex-grid guide (Red Blob Games, "Hexagonal Grids"); every
**     step is 1 long.
** The cell functions below serve both shapes; a few are one shape's own
** (the diagonal rule, the hex layout and geometry, segments).  Cells are
** named by 0-based x (column) and y (row), or by cell id y * width + x. */
typedef struct astar_grid astar_grid;

typedef enum astar_diagonal {
  ASTAR_DIAG_NEVER = 0,             /* 4-connected */
  ASTAR_DIAG_NO_CORNER_CUTTING = 1, /* diagonal needs both side cells open */
  ASTAR_DIAG_ONE_OBSTACLE = 2,      /* diagonal needs at least one side open */
  ASTAR_DIAG_ALWAYS = 3             /* diagonal needs only the target open */
} astar_diagonal;

/*
** Hex layouts: "r" layouts have pointy-top hexes in rows, every other row
** shoved right by half a hex; "q" layouts flat-top hexes in columns, every
** other column shoved down.  odd_r shoves the odd rows (0-based), even_r
** the even ones; odd_q / even_q the same for columns.
*/
typedef enum astar_layout {
  ASTAR_HEX_ODD_R = 0,
  ASTAR_HEX_EVEN_R = 1,
  ASTAR_HEX_ODD_Q = 2,
  ASTAR_HEX_EVEN_Q = 3
} astar_layout;

/* The cost of a diagonal step (times the entered cell's cost): sqrt 2 to
** within 1.2e-10, a multiple of 2^-32, so that every sum of grid steps
** below 2^21 is exact: equal routes cost bit-identical sums (real ties),
** and the octile heuristic is exactly consistent. */
#define ASTAR_GRID_DIAG (6074001000.0 / 4294967296.0)

/* Largest width or height; width * height must also stay below 2^30. */
#define ASTAR_GRID_MAX_SIDE 65535

/* A square grid.  [in] width, height: 1..ASTAR_GRID_MAX_SIDE.  [in]
** diagonal: an astar_diagonal.  All cells open, cost 1, tag 0.  NULL when
** out of memory or an argument is out of range. */
astar_grid *astar_grid_new(int32_t width, int32_t height, int diagonal,
                           astar_alloc_fn alloc, void *ud);
/* A hex grid, the same way; [in] layout: an astar_layout. */
astar_grid *astar_hex_new(int32_t width, int32_t height, int layout, astar_alloc_fn alloc,
                          void *ud);
/* Frees either shape; NULL is ignored. */
void astar_grid_free(astar_grid *gr);
astar_topology *astar_grid_topology(astar_grid *gr);
/* The grid behind a topology (the same object): NULL when t is no grid of
** cells (ASTAR_CAN_CELLS). */
astar_grid *astar_topology_grid(astar_topology *t);

int32_t astar_grid_width(const astar_grid *gr);
int32_t astar_grid_height(const astar_grid *gr);
/* Square grids: the astar_diagonal rule; EINVAL on a hex grid. */
int astar_grid_diagonal(const astar_grid *gr);
/* Hex grids: the astar_layout; EINVAL on a square grid. */
int astar_hex_layout(const astar_grid *gr);

/* Cell accessors take 0-based x (column) and y (row).  EINVAL when out of
** range; EBUSY while the grid is locked. */
int astar_grid_set_blocked(astar_grid *gr, int32_t x, int32_t y, int blocked);
/* Every cell's blocked bit from blocked[y * width + x] (nonzero: blocked)
** as one batch of set_blocked calls (one version, changes logged), for
** loading a map: the masks written in one pass and the component labels
** built in this call, O(cells), so the next question relabels nothing.
** EBUSY, EINVAL (NULL); out of memory, the next question builds them. */
int astar_grid_set_blocked_all(astar_grid *gr, const unsigned char *blocked);
/* 1 blocked, 0 open, EINVAL out of range. */
int astar_grid_blocked(const astar_grid *gr, int32_t x, int32_t y);
/* [in] cost: finite and >= 0; the cost of entering the cell is the step
** length times this.  ENOMEM possible (the cost layer is allocated on the
** first cost other than 1). */
int astar_grid_set_cost(astar_grid *gr, int32_t x, int32_t y, double cost);
int astar_grid_cost(const astar_grid *gr, int32_t x, int32_t y, double *cost);
/* [in] tag: 0..65535 (0 = none). ENOMEM possible (tag layer allocated lazily). */
int astar_grid_set_tag(astar_grid *gr, int32_t x, int32_t y, int32_t tag);
int astar_grid_tag(const astar_grid *gr, int32_t x, int32_t y, int32_t *tag);

/* [out] xy: the neighbours of (x, y) inside the grid, blocked or not, as
** x0, y0, x1, y1, ... (room for 16) in direction order (square: E, W, S, N, then SE,
** NE, SW, NW unless the rule is never; hex: east, then counter-clockwise);
** returns how many (0..8), EINVAL when (x, y) is out of range. */
int astar_grid_neighbours(const astar_grid *gr, int32_t x, int32_t y, int32_t *xy);

/* 1 when the line between the two cells' centres crosses no blocked cell
** (the end cells open too), 0 otherwise, EINVAL out of range.  Symmetric.
**   - square: exact integer walk; through a corner whose two side cells
**     are blocked it is blocked (but on rule "always" grids, where steps
**     squeeze so); touching one blocked corner is fine;
**   - hex: the guide's line drawing (for i = 0..n, n the hex distance, the
**     cell holding the point i/n of the way; a point on the edge of two
**     cells is blocked only when both are). */
int astar_grid_line_of_sight(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1);

/* The same for a unit of `size` (see astar_query.size) moving from (x0, y0)
** to (x1, y1): every cell of the unit sees its counterpart (each of the
** unit's cells walks the line above, shifted).  [in] size:
** 1..ASTAR_MAX_UNIT.  1, 0, EINVAL, or ENOMEM (the first size above 1
** builds the clearance layer, see astar_grid_clearance). */
int astar_grid_line_of_sight_size(astar_grid *gr, int32_t x0, int32_t y0,
                                  int32_t x1, int32_t y1, int32_t size);

/* The clearance of cell (x, y): the largest size k <= ASTAR_MAX_UNIT of a
** unit that fits there (inside the grid, all open; astar_query.size), 0 on
** a blocked cell.  The first use of a size above 1 builds the layer (a
** byte a cell, ENOMEM); astar_grid_set_blocked then keeps it current,
** revisiting only the cells the change can reach.  EINVAL out of range. */
int astar_grid_clearance(astar_grid *gr, int32_t x, int32_t y);

/* Writes 1 to out[y * width + x] for every cell with line of sight from
** (x, y) within `radius` (square: Euclidean, in cells; hex: steps; radius
** < 0 means unlimited) and 0 elsewhere.  [out] out: width * height
** doubles. */
int astar_grid_visible_from(const astar_grid *gr, int32_t x, int32_t y, double radius, double *out);

/* The change log, for repairs: once on, the grid keeps the cells of its
** last `cap` changes (set_blocked, set_cost, set_tag that changed something;
** one per version).  A larger cap starts a larger, empty log.  ENOMEM. */
int astar_grid_track_changes(astar_grid *gr, size_t cap);
/* [out] cells[0..*n-1]: the cells (external ids, newest first, repeats
** possible) changed since version `since`.  EOVERFLOW when the log does not
** reach back that far or holds more than `cap` of them: then only a full
** recomputation is safe.  [out] n: 0 when nothing changed. */
int astar_grid_changes(const astar_grid *gr, uint32_t since, int32_t *cells, size_t cap, size_t *n);

/* Edits as one change: the set_blocked, set_cost and set_tag calls between
** begin and end that change something make one new version together, each
** logging its cell (repeats possible), and otherwise do what they do alone,
** but for the jump table: its repair waits for the outermost end, which
** repairs the batch's cells from the change log (or, without one or past
** it, builds the table again).  Pairs nest; no search may begin in between
** (it would lock the grid). */
void astar_grid_edits_begin(astar_grid *gr);
void astar_grid_edits_end(astar_grid *gr);

/* Hex geometry.  The number of steps between two cells on an open hex
** grid; -1 when a cell is out of range or gr is a square grid. */
int32_t astar_hex_distance(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1);
/* [out] q, r: the axial coordinates of offset cell (x, y) in `layout` (the
** guide's conversion; any x, y).  Hex distance is the largest of |dq|,
** |dr| and |dq + dr|. */
void astar_hex_axial(int layout, int32_t x, int32_t y, int32_t *q, int32_t *r);
/* [out] cx, cy: the centre of cell (x, y) with the distance between
** neighbouring centres 1, the centre of cell (0, 0) at (0, 0), y down
** (layouts "r": rows sqrt(3)/2 apart; "q": columns sqrt(3)/2 apart).
** Any x, y (outside the grid too). */
void astar_hex_center(int layout, int32_t x, int32_t y, double *cx, double *cy);
/* The cell whose hexagon holds the point (px, py) in the units of
** astar_hex_center: 1 and *x, *y, or 0 when that cell is outside the grid
** (or the point is not finite, or gr is a square grid). */
int astar_hex_cell_at(const astar_grid *gr, double px, double py, int32_t *x, int32_t *y);
/* ==== Queries ==== */

typedef enum astar_heuristic {
  ASTAR_H_DEFAULT = -1,  /* the topology's default (see
                           ** astar_topology_default_heuristic) */
  ASTAR_H_ZERO = 0,      /* Dijkstra */
  ASTAR_H_EUCLIDEAN,     /* straight-line distance */
  ASTAR_H_MANHATTAN,     /* |dx| + |dy| + |dz| */
  ASTAR_H_OCTILE,        /* max + (sqrt2 - 1) * min of |dx|,|dy|; + |dz|
                           ** (grids: their own diagonal cost) */
  ASTAR_H_CHEBYSHEV,     /* max(|dx|, |dy|, |dz|) */
  ASTAR_H_BISECTOR,      /* distance to the line through start and goal */
  ASTAR_H_FULL_BISECTOR, /* that + distance from the line's foot to the goal */
  ASTAR_H_HEX,           /* hex grids only: the number of steps on an open
                           ** hex grid (exact there) */
  ASTAR_H_CALLBACK       /* query.heuristic_fn */
} astar_heuristic;

typedef enum astar_stop {
  ASTAR_STOP_EXPAND = 0, /* done when the goal is taken from the open list */
  ASTAR_STOP_FIRST_HIT,  /* done once an expansion has reached the goal */
  ASTAR_STOP_OPTIMAL     /* done when no open node has g below the goal's */
} astar_stop;

typedef enum astar_tie_break {
  ASTAR_TIE_HIGH_G = 0, /* among equal f, larger g first */
  ASTAR_TIE_FIFO        /* among equal f, the f set earliest first */
} astar_tie_break;

/* How a search explores.  Jump point search (JPS) expands only the cells
** where an optimal path may turn; its paths cost what A*'s do.  It serves
** square grid path searches with uniform costs: rule never or
** no_corner_cutting, no cell costs, no tag factor but 1, no penalty, forbid
** or cost callback, weight 1.  AUTO takes it when the query allows it,
** but not with track_best (the best node would be a jump point); JPS on
** another query is EINVAL
** (astar_jps_refusal says why).  Under JPS the statistics, trace, visited
** list, astar_search_g and _parent describe jump points; paths list every
** cell. */
typedef enum astar_algorithm {
  ASTAR_ALGO_AUTO = 0,
  ASTAR_ALGO_ASTAR,
  ASTAR_ALGO_JPS,
  ASTAR_ALGO_JPS_PLUS /* JPS over the grid's jump table (see below) */
} astar_algorithm;

/* Precomputed JPS (JPS+; Harabor & Grastien, ICAPS 2014): a square
** no_corner_cutting grid may hold a table of jump distances, 8 bytes a cell (in
** astar_topology_bytes), built by astar_grid_precompute_jumps (one pass), repaired
** locally by each astar_grid_set_blocked in that call (a far diagonal stop is cut at
** the next 16th column: a repair walks back 16 cells at most; in a batch, at astar_grid_edits_end).
** ASTAR_ALGO_JPS_PLUS searches with it: the queries JPS serves, A*'s path
** costs, every cell listed; AUTO takes it where the table pays
** (astar_grid_has_jumps).  Without a table, or on a query JPS refuses, it
** is EINVAL (astar_jps_plus_refusal says why). */

/* Returned by a cost callback (or stored in tag_factor) to forbid a step. */
#define ASTAR_FORBID HUGE_VAL

/* Heuristic callback: store an estimate from `node` to `goal` in *h (finite,
** >= 0) and return 0; return non-zero to abort the search (ECALLBACK).
** Called at most once per node per query; the value is cached. */
typedef int (*astar_heuristic_fn)(void *ctx, int32_t node, int32_t goal, double *h);

/* Cost callback: called when a step from -> to is relaxed, with `cost` the
** step cost after tag factors and penalties; store the cost to use in *out
** (finite >= 0, or ASTAR_FORBID) and return 0, or non-zero to abort.
** `link` is the graph edge id, or for grids the direction 0..7 of the step
** (E, W, S, N, SE, NE, SW, NW). */
typedef int (*astar_cost_fn)(void *ctx, int32_t from, int32_t to, int32_t link,
                             double cost, double *out);

/*
** One query.  Always start from astar_query_init and then set fields: the
** fast path (a grid search with no modifiers) is taken only when every
** field it does not honour still holds its default, so the struct must be
** initialised as a whole (no field, and no padding, left undefined).
*/
typedef struct astar_query {
  int32_t start, goal;     /* node ids */
  int32_t heuristic;       /* astar_heuristic */
  int32_t stop;            /* astar_stop */
  int32_t tie_break;       /* astar_tie_break */
  int32_t tag_count;       /* entries of tag_factor */
  double weight;           /* f = g + weight * h; finite >= 0 (1 = A*) */
  double penalty_scale;    /* any finite value (see penalty) */
  double max_cost;         /* prune nodes whose g would exceed it (inf:
                               ** no limit) */
  uint64_t max_expansions; /* 0 = no limit */
  astar_heuristic_fn heuristic_fn;
  void *heuristic_ctx;
  astar_cost_fn cost_fn;
  void *cost_ctx;
  /*
  ** The query's filter, read the same way by every search, distance field,
  ** repair, smoothing and any-angle search:
  **   - a node is forbidden when forbid[v] != 0 or, on grids, its cell's
  **     tag has factor ASTAR_FORBID: impassable exactly as a blocked cell
  **     (a disabled node): no path starts, ends or passes there, distance
  **     searches skip it as a source, the diagonal rule counts it blocked;
  **   - a step costs its own cost (edge cost; grids: length x cell cost)
  **     times the tag factor (the edge's tag; grids: the entered cell's),
  **     plus penalty[v] * penalty_scale of the entered node, then whatever
  **     cost_fn makes of it (it may forbid the step).
  ** tag_factor[t] (finite >= 0, or ASTAR_FORBID) for tags 1 <= t <
  ** tag_count; other tags unchanged.  NULL = none. */
  const double *tag_factor;
  /* node_count values indexed by node id, or NULL: penalty[v] *
  ** penalty_scale is added to the cost of entering v; a step whose cost is
  ** then not finite >= 0 stops the search with ECOST.  Nodes with
  ** forbid[v] != 0 are forbidden (see above). */
  const double *penalty;
  const double *forbid;
  int32_t record_trace;   /* keep every expansion (astar_search_trace) */
  int32_t record_visited; /* keep expanded ids (astar_search_visited) */
  int32_t track_best;     /* keep the reached node with the smallest h
                               ** (astar_search_best; costs a compare per node) */
  /* Grids: the unit's size (1..ASTAR_MAX_UNIT; 1 = one cell): square, the
  ** size x size block whose top-left cell is the path's; hex, the hexagon
  ** of cells within size - 1 steps of it (1, 7, 19, ... cells).  Every cell
  ** of the unit must be open and not forbidden (the filter above); a
  ** diagonal step applies the rule to the units at its two side positions;
  ** a step costs the dearest entered cell of the unit, each priced as a
  ** one-cell step.  Other topologies take only 1 (EINVAL). */
  int32_t size;
  int32_t algorithm; /* astar_algorithm (AUTO: JPS when it can) */
} astar_query;

/* The largest unit size (astar_query.size) and clearance value. */
#define ASTAR_MAX_UNIT 255

/* Fills q with the defaults: the topology's default heuristic, weight 1,
** stop expand, tie high_g, no callbacks, modifiers or budgets. */
void astar_query_init(astar_query *q, int32_t start, int32_t goal);

/* NULL when jump point search can serve query q on topology t; otherwise
** why not, as a short phrase ("cell costs", "penalty", "weight other than
** 1", ...).  Reads the topology as it is now. */
const char *astar_jps_refusal(const astar_topology *t, const astar_query *q);

/* NULL when ASTAR_ALGO_JPS_PLUS can serve query q on topology t (the grid
** holds a jump table and JPS serves q); otherwise why not, as a phrase. */
const char *astar_jps_plus_refusal(const astar_topology *t, const astar_query *q);

/* Builds (on != 0; again: rebuilds) or drops grid gr's jump table.  EINVAL
** unless a square no_corner_cutting grid within ASTAR_JUMP_MAX_SIDE cells
** a side; ENOMEM (no table); EBUSY while a search steps on the grid. */
#define ASTAR_JUMP_MAX_SIDE 32000
int astar_grid_precompute_jumps(astar_grid *gr, int on);

/* Whether grid gr holds a jump table: 0 no; 1 yes, AUTO leaves it to
** JPS_PLUS; 2 yes, AUTO takes it: the mean straight run over the open cells
** was at least 5 cells at the build (game, street maps; on short runs the
** table's reads cost more than JPS's bit scans). */
int astar_grid_has_jumps(const astar_grid *gr);

/* For inspection: grid gr's jump table (NULL: none), *n entries, 8 per cell
** of the padded grid ((width + 2) x (height + 2)) by direction E, W, S, N,
** SE, NE, SW, NW; k > 0: a jump point k steps on, else -k open steps;
** +-127 (straight): past 126 steps (a jump point or not), read 126 on;
** 33..48 (diagonal): a waypoint k - 32 steps on, nothing there. */
const int8_t *astar_grid_jump_table(const astar_grid *gr, size_t *n);

typedef struct astar_stats {
  uint64_t expanded;  /* nodes taken from the open list (re-expansions too) */
  uint64_t reopened;  /* closed nodes put back on the open list */
  uint64_t generated; /* insertions into the open list (new or reopened) */
} astar_stats;

typedef struct astar_trace_entry {
  int32_t node;   /* expanded node id */
  int32_t parent; /* its parent at that moment, -1 for start */
  double g, f;
} astar_trace_entry;

/* What made a search stop with EHEURISTIC, ECOST or EOVERFLOW. */
typedef enum astar_cause {
  ASTAR_CAUSE_NONE = 0,
  ASTAR_CAUSE_HEURISTIC,  /* the heuristic callback gave `value` at `node` */
  ASTAR_CAUSE_CALLBACK,   /* the cost callback gave `value` for the step */
  ASTAR_CAUSE_STEP,       /* the step's own cost is `value` (not finite:
                           ** a huge cell cost times a diagonal length) */
  ASTAR_CAUSE_TAG_FACTOR, /* the step's cost times its tag factor is `value`
                           ** (not finite) */
  ASTAR_CAUSE_PENALTY,    /* adding penalty * penalty_scale made the step
                           ** cost `value` (negative or not finite) */
  ASTAR_CAUSE_SUM         /* the cost of reaching `node` summed to `value`
                           ** (infinite) */
} astar_cause;

typedef struct astar_error_info {
  int cause;    /* astar_cause */
  int32_t node; /* the node entered (or evaluated) */
  int32_t from; /* the node the step left, -1 when none */
  int32_t link; /* the step's edge or direction, -1 when none */
  double value; /* the bad value */
} astar_error_info;

typedef struct astar_search astar_search;

/* Per-query state, reusable across queries and topologies: a query touches
** only the nodes it visits (generation stamps) and allocates nothing once
** its buffers have grown to the topology's size. */
astar_search *astar_search_new(astar_alloc_fn alloc, void *ud);
void astar_search_free(astar_search *s);

/* Validates q and prepares the search (allocating if the topology grew).
** EINVAL on a bad id, weight, heuristic, stop, tie_break or factor; ENOMEM.
** The callbacks may run from here on (the start node's heuristic). */
int astar_search_begin(astar_search *s, astar_topology *t, const astar_query *q);

/* Distance searches (multi-source Dijkstra): every node in sources[0..n-1]
** starts at cost 0; the search runs until nothing reachable is left, then
** astar_search_step returns FOUND.  astar_search_g(s, v) is the cost from
** the nearest source to v (reverse = 0), or from v to its nearest source
** (reverse = 1: steps followed backwards, what a crowd walking to the
** sources needs).  The query's modifiers and max_cost apply; start, goal,
** heuristic, weight, stop and tie_break are ignored.  Impassable or
** forbidden sources are skipped.  EINVAL on a bad source id or an empty
** topology. */
int astar_search_begin_distances(astar_search *s, astar_topology *t, const int32_t *sources,
                                 size_t n, int reverse, const astar_query *q);

/* Repairs a grid distance field after edits (topologies with
** ASTAR_CAN_REPAIR): sets the search up as if a distance search with these
** sources, reverse flag and query had run on the grid as it was (dist[c]:
** cell c's cost, HUGE_VAL unreached; link[c]: its astar_search_link, -1 at
** sources and unreached cells), then told of the cells changed[0..nchanged-1]
** (every change since: astar_grid_changes).  Run astar_search_step to the
** end and read it as after astar_search_begin_distances: the costs equal a
** fresh search's exactly.  Penalty and forbid must be the field's own, their
** changed cells among changed[].  size > 1 follows astar_search_repair's
** rules.  EINVAL with a cost callback (its costs are not in the log), a bad
** id, or when over half the reached cells hang on the changes (a fresh
** search costs less; the search is unusable until the next begin); ENOMEM. */
int astar_grid_repair_distances(astar_search *s, astar_grid *gr, const int32_t *sources,
                                size_t nsources, int reverse, const astar_query *q,
                                const double *dist, const signed char *link, const int32_t *changed,
                                size_t nchanged);

/* After a grid distance search (or a repair) has run to the end: writes
** each cell's cost (HUGE_VAL when unreached), next cell (astar_search_parent,
** -1 when none) and link (astar_search_link) into dist, next, link (width *
** height each).  After a repair, cells it left as they were are not written
** (they hold the field's values already).  ESTATE otherwise. */
int astar_grid_export_distances(const astar_search *s, const astar_grid *gr,
                                double *dist, int32_t *next, signed char *link);

/* Repairs a running (SEARCHING) grid or graph search after edits instead of
** a new begin: changed[0..nchanged-1] are what changed since it began or was
** last repaired (grids: cells, astar_grid_changes; graphs: nodes and
** -1 - edge ids, astar_graph_changes; any order, repeats allowed).
** Reached nodes whose route may use a changed step are reset with what is
** routed through them; their borders and each change's go back on the open
** list, and astar_search_step ends with a fresh search's costs (given an
** admissible heuristic).  q: the query it began with (its tag factors may
** be longer now).  Distance searches pass their sources (unreached ones
** that can be stood on are seeded), path searches none; a path search may
** be UNREACHABLE at once.  [out] nreset (may be NULL): nodes reset.
** EINVAL (begin again) when it cannot be repaired -- JPS, a cost or
** heuristic callback, bisector heuristics, manhattan where not the default,
** on graphs an estimate other than zero/euclidean/chebyshev or one that may
** overestimate (an edge cheaper than its line, a tag factor below 1),
** weight above 1, stop not "expand", max_expansions, finite max_cost,
** track_best, trace or visited -- when it would reset over half the nodes
** generated, or on a bad id; ESTATE when not running; ENOMEM (unusable until
** the next begin). */
int astar_search_repair(astar_search *s, const int32_t *changed, size_t nchanged,
                        const astar_query *q, const int32_t *sources, size_t nsources,
                        size_t *nreset);

/* Runs at most max_steps expansions (0 = no limit).  Returns SEARCHING when
** the budget ran out first, a final outcome (FOUND, UNREACHABLE,
** MAX_EXPANSIONS, MAX_COST) or an error.  Once final, further calls return the
** same status.  ECHANGED when the topology was mutated since begin. */
int astar_search_step(astar_search *s, uint64_t max_steps);

/* The last status astar_search_step returned (ESTATE before any begin). */
int astar_search_status(const astar_search *s);
const astar_stats *astar_search_stats(const astar_search *s);
/* 1 when the search begun last runs jump point search (ASTAR_ALGO_AUTO
** chose it, or ASTAR_ALGO_JPS), else 0. */
int astar_search_jps(const astar_search *s);
/* After EHEURISTIC, ECOST or EOVERFLOW: what went wrong and where (cause
** ASTAR_CAUSE_NONE otherwise). */
const astar_error_info *astar_search_error(const astar_search *s);

/* After FOUND: the number of nodes on the path (>= 1).  Partial paths: pass
** the node from astar_search_best.  0 when `to` was not reached. */
int32_t astar_search_path_length(const astar_search *s, int32_t to);
/* Writes the path start..to: nodes[0..len-1] (required, room for _length's
** count) and links[0..len-2] (may be NULL; graph edge ids, grid step
** directions 0..7, hex 0..5).  [out] cost (may be NULL): the step costs
** summed.  Returns the length, 0 when `to` was not reached. */
int32_t astar_search_path(const astar_search *s, int32_t to, int32_t *nodes,
                          int32_t *links, double *cost);
/* The same in one walk into arrays the caller keeps (as getline's), *nodes
** of *ncap and *links of *lcap (links NULL: none), grown by alloc (NULL:
** realloc); [out] len.  ENOMEM: a growth failed (*len 0, arrays valid). */
int astar_search_path_fill(const astar_search *s, int32_t to, astar_alloc_fn alloc, void *ud,
                           int32_t **nodes, size_t *ncap, int32_t **links, size_t *lcap,
                           int32_t *len, double *cost);
/* The goal id of the current query (-1 for distance searches). */
int32_t astar_search_goal(const astar_search *s);
/* With query.track_best: the reached node with the smallest heuristic value
** (ties: the first reached); the target of a partial path.  -1 otherwise. */
int32_t astar_search_best(const astar_search *s);
/* Cost so far of a reached node; -1 when not reached in this query. */
double astar_search_g(const astar_search *s, int32_t node);
/* The link of a reached node: the edge id (graphs) or step direction 0..7
** (grids) by which the search reached it; after a reverse distance search,
** the first step to take from it toward its nearest source.  -1 for a
** source, the start or an unreached node. */
int32_t astar_search_link(const astar_search *s, int32_t node);
/* The node a reached node's link joins it to: its predecessor on the way
** from the start (or from the nearest source) after a path or forward
** distance search, the next node on the way to the nearest source after a
** reverse one.  -1 where astar_search_link is -1. */
int32_t astar_search_parent(const astar_search *s, int32_t node);

/* The query's heuristic at any node (not only reached ones), after a begin:
** callbacks run (uncached).  EHEURISTIC / ECALLBACK as during a search. */
int astar_search_h(astar_search *s, int32_t node, double *h);

/* Recorded when the query asked; valid until the next begin. */
const astar_trace_entry *astar_search_trace(const astar_search *s, size_t *n);
const int32_t *astar_search_visited(const astar_search *s, size_t *n);

/* Bytes this search holds: node states, caches, heaps, trace and visited
** buffers (they grow to the largest query run so far and are kept). */
size_t astar_search_bytes(const astar_search *s);

/* ==== Precomputed heuristics ==== */

/* A table is a heuristic computed once from a topology's own costs (no
** query modifiers), evaluated in C with no callback per node:
**   - landmarks (ALT): costs from and to k landmarks (farthest-point
**     sampling); h(n) = max over L of d(L, goal) - d(L, n) and
**     d(n, L) - d(goal, L): admissible (directed graphs too), consistent
**     up to the rounding of the stored costs;
**   - clusters: per node a cluster label, the cheapest cost between each
**     pair of clusters (admissible, not consistent: it jumps at borders).
** Either takes the max with a geometric bound (Euclidean, octile) scaled
** by the topology's least cost per unit of length.  A table serves the
** topology as it was built: check astar_table_serves before searching (a
** changed topology could make it overestimate). */
typedef struct astar_table astar_table;

enum astar_table_kinds {
  ASTAR_TABLE_LANDMARKS = 0,
  ASTAR_TABLE_CLUSTERS
};

/* Landmarks: [in] k: 1..ASTAR_MAX_LANDMARKS landmarks wanted (fewer when
** fewer nodes are reachable).  [out] out: the table.  EINVAL when k is out of
** range or no node is passable; ENOMEM. */
#define ASTAR_MAX_LANDMARKS 64
int astar_landmarks_build(astar_topology *t, int32_t k, astar_alloc_fn alloc,
                          void *ud, astar_table **out);

/* Clusters: [in] labels: node_count labels, each -1 (no cluster) or
** 0..k-1; or NULL to cluster automatically: k seeds by farthest-point
** sampling, every node joining the seed nearest to it.  [in] k:
** 1..ASTAR_MAX_CLUSTERS.  EINVAL on a bad k or label, or when no node has a
** cluster; ENOMEM. */
#define ASTAR_MAX_CLUSTERS 4096
int astar_clusters_build(astar_topology *t, const int32_t *labels, int32_t k,
                         astar_alloc_fn alloc, void *ud, astar_table **out);

void astar_table_free(astar_table *h);
/* An astar_heuristic_fn: ctx is the table. */
int astar_table_heuristic(void *ctx, int32_t node, int32_t goal, double *h);
int astar_table_kind(const astar_table *h);
/* The number of landmarks or clusters. */
int32_t astar_table_size(const astar_table *h);
size_t astar_table_bytes(const astar_table *h);
/* 1 when h was built for t and t has not changed since. */
int astar_table_serves(const astar_table *h, const astar_topology *t);

/* ==== Auditing a heuristic ==== */

typedef struct astar_audit {
  uint64_t samples;         /* goals tried */
  uint64_t checked;         /* (node, goal) pairs with a finite cost */
  uint64_t overestimates;   /* ... whose h exceeds that cost */
  double max_overestimate;  /* largest h - cost (0 when none) */
  uint64_t steps;           /* steps u -> v checked for consistency */
  uint64_t inconsistent;    /* steps with h(u) > c(u, v) + h(v) */
  double max_inconsistency; /* largest h(u) - c(u, v) - h(v) */
} astar_audit;

/* Audits the heuristic of q (q->heuristic and q->heuristic_fn; start and
** goal are ignored) on t with the topology's own costs: for `samples` goals
** spread evenly over the passable nodes (each query's start halfway round
** them, for the bisector heuristics), every node that can reach the goal is
** checked for admissibility (h <= true cost, within 1e-9 relative) and every
** step for consistency (h(u) <= c(u, v) + h(v)).  s and d are two search
** objects that hold every buffer the audit needs, so a heuristic callback
** may longjmp out of it.  EINVAL when samples < 1 or no node is passable;
** EHEURISTIC / ECALLBACK from the heuristic; ENOMEM. */
int astar_audit_heuristic(astar_topology *t, const astar_query *q, int32_t samples, astar_search *s,
                          astar_search *d, astar_audit *out);

/* ==== Segments, smoothing and any-angle paths (anyangle.c) ==== */

/* A segment joins two cell centres.  Under query q (NULL: the grid's own
** costs) a cell's rate (cost per unit of length) is what a cardinal step
** into it costs: cell cost * tag factor + penalty * penalty_scale, infinite
** when blocked or forbidden; cost_fn is not consulted (it prices steps).  A
** segment costs the sum over the cells it crosses of (its length inside)
** * rate, HUGE_VAL when it enters an impassable cell or squeezes through a
** corner (rules never, no_corner_cutting: both cells beside a corner it
** passes exactly through must be passable; others: one).  With uniform
** costs a segment's cost is its length. */

/* Called for each cell the segment passes through, in order, with the
** segment's length inside it; at an exact corner crossing also for the two
** cells beside the corner, with len 0 and corner 1.  Return non-zero to
** stop the walk (astar_grid_walk returns that value). */
typedef int (*astar_cell_visit)(void *ctx, int32_t x, int32_t y, double len, int corner);

/* Walks the segment from the centre of (x0, y0) to the centre of (x1, y1):
** exact integer arithmetic, symmetric, the lengths summing to the
** segment's.  Returns 0, the visitor's non-zero value, or EINVAL when a
** cell is out of range. */
int astar_grid_walk(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    astar_cell_visit visit, void *ctx);

/* [out] cost: the segment's cost under q (HUGE_VAL: no passage).  ECOST
** when a crossed cell's rate is negative or not finite ([out] bad_cell, may
** be NULL, is that cell's id and cost its rate); EINVAL out of range. */
int astar_grid_segment_cost(const astar_grid *gr, const astar_query *q, int32_t x0, int32_t y0,
                            int32_t x1, int32_t y1, double *cost, int32_t *bad_cell);

/* Greedy string pulling of the cell path cells[0..n-1] (cell ids): writes
** the kept indices to keep (room for n; first 0, last n - 1), returns how
** many.  From each kept cell the next is the farthest later cell whose
** segment costs no more than the path's section between them (priced the
** same way, centre to centre) and crosses no cell (length > 0) with a
** higher rate than the section's highest; the scan stops at a segment
** with no passage.  [in] prefix: scratch for n doubles.  EINVAL on n < 1 or a bad id; ECOST
** (bad_cell, bad_value) as above. */
int astar_grid_smooth(const astar_grid *gr, const astar_query *q, const int32_t *cells, int32_t n,
                      int32_t *keep, double *prefix, int32_t *bad_cell, double *bad_value);

/* What keeps a search under q (NULL: the grid's own rules) from taking the
** step from cell `from` to cell `to` (ids), as each step of a cell path
** must be taken (either shape); from = -1 asks only whether the unit may
** stand at `to` (a path's first cell).  [out] cell (may be NULL): the cell
** to blame, -1 when none (a sized unit leaving the grid). */
typedef enum astar_step_fault {
  ASTAR_STEP_OK = 0,
  ASTAR_STEP_BLOCKED,   /* `to` (a sized unit: a cell of it) is blocked */
  ASTAR_STEP_FORBIDDEN, /* ... or has a non-zero q->forbid value */
  ASTAR_STEP_TAG,       /* ... or a tag whose q->tag_factor forbids */
  ASTAR_STEP_SAME,      /* from == to */
  ASTAR_STEP_FAR,       /* not neighbours */
  ASTAR_STEP_DIAGONAL,  /* a diagonal step on a square grid whose rule is
                        ** never */
  ASTAR_STEP_CORNER     /* a diagonal step the rule refuses: its side cells
                        ** (a sized unit: the units there) are blocked or
                        ** forbidden (ask each with from = -1) */
} astar_step_fault;
/* An astar_step_fault, or EINVAL on an id out of range. */
int astar_grid_step_fault(const astar_grid *gr, const astar_query *q, int32_t from,
                          int32_t to, int32_t *cell);
/* The same for a graph step from -> to along `edge` (from = -1: whether
** `to` can be stood on; edge ignored): FAR when the edge does not lead from
** `from` to `to`, BLOCKED when `to` is disabled, FORBIDDEN, TAG (the edge's
** tag; q NULL: the graph's own rules).  EINVAL on an id out of range. */
int astar_graph_step_fault(const astar_graph *g, const astar_query *q, int32_t from,
                           int32_t edge, int32_t to);

/*
** Any-angle search (Theta*) on a grid: a parent may be any cell whose
** segment reaches the node, so paths turn only where they must.  Costs are
** segment costs under q (weight, max_expansions, max_cost, record_visited
** and track_best honoured; heuristic, stop, tie_break and record_trace
** ignored; a cost_fn is EINVAL).  The grid must not change between begin and the
** last step (ECHANGED).  State is reusable like astar_search's.
*/
typedef struct astar_theta astar_theta;
astar_theta *astar_theta_new(astar_alloc_fn alloc, void *ud);
void astar_theta_free(astar_theta *t);
int astar_theta_begin(astar_theta *t, const astar_grid *gr, const astar_query *q);
/* As astar_search_step; ECOST when a rate is bad, EOVERFLOW when the cost
** of reaching a cell from the cell expanded sums to infinity, as A* stops
** (astar_theta_bad says where). */
int astar_theta_step(astar_theta *t, uint64_t max_steps);
int astar_theta_status(const astar_theta *t);
const astar_stats *astar_theta_stats(const astar_theta *t);
int32_t astar_theta_best(const astar_theta *t);
const int32_t *astar_theta_visited(const astar_theta *t, size_t *n);
/* After ECOST: the cell whose rate was bad, and [out] value that rate;
** after EOVERFLOW: the cell being reached, and HUGE_VAL. */
int32_t astar_theta_bad(const astar_theta *t, double *value);
/* The turning points start..to (cell ids) into points (NULL: count only),
** [out] cost (the path's cost) and length (the sum of its segments; only
** when points is given).  Returns the count, 0 when `to` was not reached,
** ENOMEM (the fast mode pulls the path taut on the first call for `to`
** and keeps the points for the next). */
int32_t astar_theta_points(astar_theta *t, int32_t to, int32_t *points, double *cost,
                           double *length);
size_t astar_theta_bytes(const astar_theta *t);

#ifdef __cplusplus
}
#endif

#ifdef ASTAR_HIDDEN_API
#pragma GCC visibility pop
#endif

#endif
