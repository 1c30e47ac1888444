/*
** ltopo.c -- topologies as Lua objects: the userdata every kind shares,
** the class that tells the generic code how a kind reads and shows its
** nodes, tags, and the search state a topology keeps for its queries.
** Included by lastar.c; lgraph.c and lgrid.c define the classes.
**
** A topology userdata wraps a core topology (astar_topology: graph, grid).
** Its user value is a table { tags = {name -> id}, names = {id -> name},
** search = <cached Search> }.  Everything that differs between kinds --
** how many arguments name a node, how a node is shown to callbacks and in
** messages, what a path or a distance result carries -- is a function of
** its class, so find_path, query, distances and the heuristics are written
** once, and a new kind of topology is one more class file.
*/

#define SEARCH_MT "astar.Search"
#define GRID_MT "astar.Grid"
#define HEX_MT "astar.Hex"
#define ANY_TOPOLOGY "astar.Graph, astar.Grid or astar.Hex"

typedef struct ltopo ltopo;
typedef struct lsbuf lsbuf;

/* How many changes a grid remembers (8 bytes each): grid:changes(since),
** a query's repair and a distance field's update() reach back that far. */
#define TOPO_CHANGE_LOG 4096

/* Search states a topology keeps from cancelled queries (lquery.c). */
#define TOPO_SPARES 2

typedef struct ltopo_class {
  const char *mt;   /* metatable name: "astar.Graph" */
  const char *what; /* "graph": messages */
  int node_args;    /* stack slots naming a node: 1 (id), 2 (x, y) */
  int32_t max_tag;  /* largest tag id */
  void (*free)(void *impl);
  astar_topology *(*topology)(void *impl);
  /* the shape of a per-node field (penalty, forbid) for this topology:
  ** 1 and *w x *h, or 0 when the kind takes no fields */
  int (*shape)(ltopo *T, int32_t *w, int32_t *h);
  /* reads the node named at arg (node_args slots); a 0-based id */
  int32_t (*check_node)(lua_State *L, ltopo *T, int arg);
  /* reads entry i (0-based) of a list of nodes, the value at vidx, for
  ** argument arg (what: "sources") */
  int32_t (*list_node)(lua_State *L, ltopo *T, int arg, int vidx, const char *what,
                       size_t i);
  /* pushes a node as callbacks get it; returns the number of values */
  int (*push_node)(lua_State *L, ltopo *T, int32_t id);
  /* pushes "node 3" / "cell (2, 5)" */
  const char *(*node_name)(lua_State *L, ltopo *T, int32_t id);
  /* pushes the arguments of a cost callback for the step; returns count */
  int (*push_step)(lua_State *L, ltopo *T, int32_t from, int32_t to, int32_t link,
                   double cost);
  /* pushes "edge 3 from node 1 to node 2" / "the step from (1, 1) to (2, 1)" */
  const char *(*step_name)(lua_State *L, ltopo *T, int32_t from, int32_t to,
                           int32_t link);
  /* pushes what a bad step cost is blamed on: "edge 3" / "entering cell
  ** (2, 1)"; step_word: "edge" / "step" */
  const char *(*cost_subject)(lua_State *L, ltopo *T, int32_t from, int32_t to,
                              int32_t link);
  const char *step_word;
  /* adds the kind's own fields to the path table on top (graph: edges;
  ** grid: length, width and the xy metatable); length: the path's length
  ** when the caller knows it (>= 0), or -1 (summed from the links) */
  void (*path_extras)(lua_State *L, ltopo *T, const int32_t *links, int32_t len,
                      double length);
  int path_fields; /* how many fields path_extras adds */
  /* adds the kind's own fields to a trace entry on top (grid: x, y) */
  void (*trace_extras)(lua_State *L, ltopo *T, int32_t node);
  /* pushes what distances returns, from the finished search s; tidx: the
  ** topology's stack index; returns the number of values */
  int (*push_distances)(lua_State *L, ltopo *T, int tidx, astar_search *s, int reverse);
  /* grids of cells: how the class pictures them (lcells.c); NULL on graphs */
  const struct lcells_ops *cells;
} ltopo_class;

/* What a class of grids says about its cells beyond naming them (lcells.c
** holds the methods every such class shares; lgrid.c and lhex.c the two
** shapes).  Each reads the core grid, whatever its shape. */
typedef struct lcells_ops {
  /* a step's length by its link, a direction (square 0..7, hex 0..5:
  ** astar_search_path), looked up per step of path.length */
  double step_length[8];
  /* the world frame: the centre of cell (x, y) (0-based) relative to the
  ** origin, for cell_size s, and the cell holding a point relative to the
  ** origin (0 when none) */
  void (*to_world)(const astar_grid *gr, int32_t x, int32_t y, double s, double *wx, double *wy);
  int (*to_cell)(const astar_grid *gr, double wx, double wy, double s, int32_t *x, int32_t *y);
  /* adds the picture of cells[] (one character a cell, row by row) to b;
  ** line: room for 2 * width + 1 characters */
  void (*text)(luaL_Buffer *b, const astar_grid *gr, const char *cells, char *line);
  /* pushes __tostring's detail: "diagonal no_corner_cutting" */
  const char *(*detail)(lua_State *L, const astar_grid *gr);
  /* fields measure add_disc in the metric of their grid, which may close
  ** before them: `metric` is what `within` needs of the grid, kept by the
  ** field; within: (x, y) is within radius of (x0, y0) */
  int (*metric)(const astar_grid *gr);
  int (*within)(int metric, int32_t x0, int32_t y0, int32_t x, int32_t y, double radius);
} lcells_ops;

struct ltopo {
  lobj o; /* first: the lifetime header */
  const ltopo_class *cls;
  void *impl;                       /* astar_graph, astar_grid */
  astar_topology *t;                /* its topology view; NULL once released */
  astar_grid *grid;                 /* the grid of cells behind t; NULL for graphs */
  lobj *search;                     /* its cached Search (in the user value) */
  lobj *search2;                    /* a second one, for calls that run two searches
                                ** at once (grid:flee; uv.search2) */
  astar_search *spare[TOPO_SPARES]; /* search states of cancelled queries,
                                ** for the next queries to begin in */
  int32_t cells_w;                  /* grids of cells: the width (fixed; read
                                ** per callback), 0 for graphs */
};

/* ------------------------------------------------------------------------ */
/* checking                                                                   */
/* ------------------------------------------------------------------------ */

/* The class of the topology userdata at idx, NULL when it is none: a
** metatable the module state knows (lstate's class_mt: a pointer compare),
** else the metatable's CLASS_FIELD (a class's metatable made by an earlier
** luaopen, when the registry's was replaced in between).  No collector step
** runs here (lua_getfield takes none, where luaL_getmetafield's
** lua_pushstring would): protected bodies check their objects before
** holding them. */
static const ltopo_class *topo_class_of(lua_State *L, int idx) {
  const ltopo_class *cls = NULL;
  if (lua_type(L, idx) == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
    const void *mt = lua_topointer(L, -1);
    const lstate *M = get_state(L);
    int i;
    for (i = 0; i < TOPO_CLASSES; i++)
      if (M->class_mt[i] == mt) {
        lua_pop(L, 1);
        return M->class_of[i];
      }
    KEY(L, K_CLASS); /* CLASS_FIELD */
    lua_rawget(L, -2);
    cls = (const ltopo_class *)lua_touserdata(L, -1);
    lua_pop(L, 2);
  }
  return cls;
}

static void closed_error(lua_State *L, const char *what) {
  raise_error(L, "attempt to use a closed %s", what);
}

/* The open topology at idx: of class cls, or of any class (NULL). */
static ltopo *check_topo(lua_State *L, int idx, const ltopo_class *cls) {
  const ltopo_class *got = topo_class_of(L, idx);
  ltopo *T;
  if (got == NULL || (cls != NULL && got != cls))
    type_error(L, idx, cls ? cls->mt : ANY_TOPOLOGY);
  T = (ltopo *)lua_touserdata(L, idx);
  if (T->o.closed) closed_error(L, got->what);
  return T;
}

/* The topology a method was called on: of the method's own class. */
static ltopo *check_self(lua_State *L) {
  return check_topo(L, 1, (const ltopo_class *)lua_touserdata(L, lua_upvalueindex(UV_CLASS)));
}

/* The same, held (and locked when the call searches it) for a protected
** call. */
static ltopo *hold_self(lua_State *L, lcall *C, int lock) {
  ltopo *T = check_self(L);
  hold(L, C, &T->o, lock);
  return T;
}

/* Mutators call this first: a search reading the topology forbids it. */
static void check_mutable(lua_State *L, ltopo *T) {
  if (T->o.locks > 0)
    raise_error(L, "cannot call '%s': %s is being searched", fname_of(L), T->cls->what);
}

/* ------------------------------------------------------------------------ */
/* lifetime                                                                   */
/* ------------------------------------------------------------------------ */

/* A topology's pointer to a cached search and the search's pointer back to
** it (search_own): whichever goes first clears the other, so neither
** dangles when the debug library takes a search out of the user value and
** the collector frees it before its topology (lsearch). */
static void search_own(lobj *o, lobj **slot);

/* Drops the topology's pointer *slot, freeing the search it points to
** unless a call holds it (that one goes with its holder or the collector). */
static void search_disown(lobj **slot) {
  lobj *o = *slot;
  if (o == NULL) return;
  *slot = NULL;
  search_own(o, NULL);
  if (o->holds == 0) obj_release(o);
}

/* Frees the topology, and its cached search state with it: the collector
** would take that one a cycle later (a finalized object keeps what it
** references alive for its finalizer), and it is the big one. */
static void topo_release(lobj *o) {
  ltopo *T = (ltopo *)o;
  int i;
  for (i = 0; i < TOPO_SPARES; i++) {
    astar_search_free(T->spare[i]);
    T->spare[i] = NULL;
  }
  T->cls->free(T->impl);
  T->impl = NULL;
  T->t = NULL;
  T->grid = NULL;
  search_disown(&T->search);
  search_disown(&T->search2);
}

static void *search_make(lua_State *L, lstate *M);

/* Pushes an empty topology userdata of class cls (create first, acquire
** second: topo_attach gives it its core object).  Its search state is made
** now, not at the first search: a search then allocates nothing before it
** holds what it reads (see acquire_search). */
static ltopo *topo_new(lua_State *L, const ltopo_class *cls) {
  ltopo *T = (ltopo *)compat_newud(L, sizeof(ltopo));
  obj_init(&T->o, get_state(L), topo_release);
  T->o.released = T->o.closed = 1; /* nothing to free yet */
  T->cls = cls;
  T->impl = NULL;
  T->t = NULL;
  T->grid = NULL;
  T->search = NULL;
  T->search2 = NULL;
  memset(T->spare, 0, sizeof T->spare);
  T->cells_w = 0;
  luaL_getmetatable(L, cls->mt);
  lua_setmetatable(L, -2);
  lua_createtable(L, 0, 3);
  lua_newtable(L);
  lua_setfield(L, -2, "tags");
  lua_newtable(L);
  lua_setfield(L, -2, "names");
  T->search = (lobj *)search_make(L, T->o.M);
  lua_setfield(L, -2, "search");
  compat_setuv(L, -2);
  return T;
}

/* Gives T its core object (raises when impl is NULL: out of memory). */
static void topo_attach(lua_State *L, ltopo *T, void *impl) {
  int32_t w = 0, h = 0;
  if (impl == NULL) status_error(L, ASTAR_ENOMEM);
  T->impl = impl;
  T->t = T->cls->topology(impl);
  T->grid = astar_topology_grid(T->t);
  T->cells_w = T->cls->shape(T, &w, &h) ? w : 0;
  T->o.released = T->o.closed = 0;
  search_own(T->search, &T->search); /* from now on topo_release drops it */
  /* every grid logs its changes from the start: grid:changes(since) answers
  ** for any version it handed out (paths, version()) within the log, and
  ** queries repair from it */
  if (T->grid && astar_grid_track_changes(T->grid, TOPO_CHANGE_LOG) != ASTAR_OK)
    status_error(L, ASTAR_ENOMEM);
}

/* g:close() and __close: idempotent; a held topology closes when its last
** holder is done (see lobject.c). */
static int l_topo_close(lua_State *L) {
  const ltopo_class *cls = (const ltopo_class *)lua_touserdata(L, lua_upvalueindex(UV_CLASS));
  if (topo_class_of(L, 1) != cls) type_error(L, 1, cls->mt);
  obj_close(&((ltopo *)lua_touserdata(L, 1))->o);
  return 0;
}

static int l_topo_gc(lua_State *L) {
  const ltopo_class *cls = (const ltopo_class *)lua_touserdata(L, lua_upvalueindex(UV_CLASS));
  if (topo_class_of(L, 1) != cls) type_error(L, 1, cls->mt);
  obj_gc(&((ltopo *)lua_touserdata(L, 1))->o);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* tags                                                                       */
/* ------------------------------------------------------------------------ */

/* Interns the tag name at arg for the topology at tidx: returns its id
** (>= 1).  The user value keeps tags[name] = id and names[id] = name. */
static int32_t intern_tag(lua_State *L, int tidx, int arg, int32_t max) {
  int32_t id;
  compat_getuv(L, tidx);
  lua_getfield(L, -1, "tags");
  lua_pushvalue(L, arg);
  lua_rawget(L, -2);
  if (lua_type(L, -1) == LUA_TNUMBER) {
    id = (int32_t)lua_tonumber(L, -1);
    lua_pop(L, 3);
    return id;
  }
  lua_pop(L, 1);
  lua_getfield(L, -2, "names");
  id = (int32_t)compat_rawlen(L, -1) + 1;
  if (id > max) raise_error(L, "too many distinct tags (at most %d)", (int)max);
  lua_pushvalue(L, arg);
  lua_rawseti(L, -2, id);
  lua_pushvalue(L, arg);
  lua_pushnumber(L, id);
  lua_rawset(L, -4);
  lua_pop(L, 3);
  return id;
}

/* Pushes the name of tag id (nil for 0) of the topology at tidx. */
static void push_tag_name(lua_State *L, int tidx, int32_t tag) {
  if (tag == 0) {
    lua_pushnil(L);
    return;
  }
  compat_getuv(L, tidx);
  lua_getfield(L, -1, "names");
  lua_rawgeti(L, -1, tag);
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* ------------------------------------------------------------------------ */
/* search state                                                               */
/* ------------------------------------------------------------------------ */

/* A core search and the scratch the binding keeps beside it, all from the
** module state's allocator.  Embedded in Search userdata and in queries. */
struct lsbuf {
  astar_search *s;
  double *tagf; /* per-query tag factors */
  size_t tagf_cap;
  int32_t *nodes, *links; /* path and source lists */
  size_t nodes_cap, links_cap;
  astar_theta *th; /* any-angle searches, made on first use */
  double *work;    /* smoothing: section costs */
  size_t work_cap;
};

static void sbuf_free(lstate *M, lsbuf *b) {
  astar_search_free(b->s);
  if (b->tagf) state_alloc(M, b->tagf, b->tagf_cap * sizeof(double), 0);
  if (b->nodes) state_alloc(M, b->nodes, b->nodes_cap * sizeof(int32_t), 0);
  if (b->links) state_alloc(M, b->links, b->links_cap * sizeof(int32_t), 0);
  if (b->work) state_alloc(M, b->work, b->work_cap * sizeof(double), 0);
  astar_theta_free(b->th);
  memset(b, 0, sizeof *b);
}

static size_t sbuf_bytes(const lsbuf *b) {
  return (b->s ? astar_search_bytes(b->s) : 0) + b->tagf_cap * sizeof(double) +
         (b->nodes_cap + b->links_cap) * sizeof(int32_t) + b->work_cap * sizeof(double) +
         (b->th ? astar_theta_bytes(b->th) : 0);
}

/* Grows a scratch array of b to `need` elements; raises on failure
** (nothing is lost: the old block stays owned). */
static void *sbuf_grow(lua_State *L, lstate *M, void *p, size_t *cap, size_t need,
                       size_t size) {
  size_t ncap = *cap ? *cap : 16;
  void *np = NULL;
  if (need <= *cap) return p;
  while (ncap < need) ncap *= 2;
  if (ncap > ((size_t)-1) / size || (np = state_alloc(M, p, *cap * size, ncap * size)) == NULL)
    status_error(L, ASTAR_ENOMEM);
  *cap = ncap;
  return np;
}

/* The Search userdata: a topology's reusable search state. */
typedef struct lsearch {
  lobj o;
  lsbuf b;
  lobj **owner; /* the topology's pointer to it, when cached (search_own) */
} lsearch;

static void search_own(lobj *o, lobj **slot) { ((lsearch *)o)->owner = slot; }

static void search_release(lobj *o) {
  lsearch *S = (lsearch *)o;
  if (S->owner != NULL) *S->owner = NULL;
  S->owner = NULL;
  sbuf_free(o->M, &S->b);
}

static int l_search_gc(lua_State *L) {
  obj_gc(&((lsearch *)check_ud(L, 1, SEARCH_MT))->o);
  return 0;
}

/* Pushes a new Search (create first, acquire second). */
static void *search_make(lua_State *L, lstate *M) {
  lsearch *S = (lsearch *)compat_newud(L, sizeof(lsearch));
  obj_init(&S->o, M, search_release);
  memset(&S->b, 0, sizeof S->b);
  S->owner = NULL;
  luaL_getmetatable(L, SEARCH_MT);
  lua_setmetatable(L, -2);
  S->b.s = astar_search_new(state_alloc, M);
  if (S->b.s == NULL) status_error(L, ASTAR_ENOMEM);
  return S;
}

/* Pushes a new Search, held by C. */
static lsearch *search_new(lua_State *L, lcall *C) {
  lsearch *S = (lsearch *)search_make(L, C->M);
  hold(L, C, &S->o, 0);
  return S;
}

/* Pushes and holds the search state cached in field `field` of the user
** value of the topology at tidx (slot: its pointer in the topology): that
** one, or a fresh one when it is in use (a nested search from a callback or
** a finalizer gets its own) or was freed. */
static lsearch *acquire_cached(lua_State *L, lcall *C, int tidx, int field, lobj **slot) {
  lsearch *S;
  int cache;
  compat_getuv(L, tidx);
  KEY(L, field);
  lua_rawget(L, -2);
  /* the search state this topology cached is the userdata at *slot's address
  ** (no metatable look-up on every call); anything else there (the debug
  ** library can put it) is checked as before */
  S = lua_touserdata(L, -1) == (void *)*slot && *slot != NULL
          ? (lsearch *)*slot
          : (lsearch *)compat_testudata(L, -1, SEARCH_MT);
  if (S != NULL && S->o.holds == 0 && !S->o.released) {
    lua_remove(L, -2);
    hold(L, C, &S->o, 0);
    return S;
  }
  /* a busy cached search stays for its holder; a freed one is replaced */
  cache = S == NULL || S->o.released;
  lua_pop(L, 1);
  S = search_new(L, C); /* uv, S */
  if (cache) {
    if (*slot != NULL) search_own(*slot, NULL); /* alive: see search_own */
    *slot = &S->o;
    search_own(*slot, slot);
    KEY(L, field);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_remove(L, -2);
  return S;
}

/* The search state for a call on the topology at tidx (acquire_cached). */
static lsearch *acquire_search(lua_State *L, lcall *C, int tidx) {
  ltopo *T = (ltopo *)lua_touserdata(L, tidx);
  return acquire_cached(L, C, tidx, K_SEARCH, &T->search);
}

/* A second one, for a call that runs two searches at once. */
static lsearch *acquire_search2(lua_State *L, lcall *C, int tidx) {
  ltopo *T = (ltopo *)lua_touserdata(L, tidx);
  return acquire_cached(L, C, tidx, K_SEARCH2, &T->search2);
}

/* Bytes held in C for the topology at tidx: its own storage plus its cached
** search state (the size of the largest query run on it). */
static size_t topo_bytes(lua_State *L, ltopo *T, int tidx) {
  size_t n = astar_topology_bytes(T->t);
  lsearch *S;
  int i;
  compat_getuv(L, tidx);
  lua_getfield(L, -1, "search");
  S = (lsearch *)compat_testudata(L, -1, SEARCH_MT);
  if (S != NULL) n += sbuf_bytes(&S->b);
  lua_pop(L, 1);
  lua_getfield(L, -1, "search2");
  S = (lsearch *)compat_testudata(L, -1, SEARCH_MT);
  if (S != NULL) n += sbuf_bytes(&S->b);
  lua_pop(L, 2);
  for (i = 0; i < TOPO_SPARES; i++)
    if (T->spare[i]) n += astar_search_bytes(T->spare[i]);
  return n;
}

/* The classes (lgraph.c, lgrid.c, lhex.c), for the functions that name one. */
static const ltopo_class graph_class, grid_class, hex_class;

/* graph:connected(a, b) / grid:connected(x1, y1, x2, y2) -> boolean: false
** proves there is no path (the nodes are impassable or in different
** components of the topology's own passability).  Protected: a relabel
** allocates (the labels' memory is accounted when the call ends). */
static int l_topo_connected(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int na = T->cls->node_args;
  int32_t a = T->cls->check_node(L, T, 2), b = T->cls->check_node(L, T, 2 + na);
  lua_pushboolean(L, check_status(L, astar_topology_connected(T->t, a, b)));
  return 1;
}

/* graph:would_disconnect(n, nodes) / grid:would_disconnect(x, y, cells)
** -> boolean: whether making the node impassable would separate two of
** the listed nodes that are connected now (the node itself is separated
** from any of them).  Changes nothing: not the topology, its version,
** fields or queries.  The list is read raw into a userdata (no Lua code
** runs; the collector frees it whatever happens).  Protected: the core
** allocates its scratch. */
static int l_topo_would_disconnect(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int na = T->cls->node_args, arg = 2 + na, list;
  int32_t node = T->cls->check_node(L, T, 2), *ids;
  const char *what = na == 2 ? "cells" : "nodes";
  size_t i, n;
  if (!lua_istable(L, arg)) type_error(L, arg, na == 2 ? "table (a list of cells)" : "table (a list of nodes)");
  n = compat_rawlen(L, arg);
  if (n > (size_t)INT32_MAX)
    arg_error(L, arg, lua_pushfstring(L, "%s must hold at most %d entries", what, (int)INT32_MAX));
  ids = (int32_t *)compat_newud(L, (n > 0 ? n : 1) * sizeof(int32_t));
  list = lua_gettop(L);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, arg, (int)i + 1);
    ids[i] = T->cls->list_node(L, T, arg, lua_gettop(L), what, i);
    lua_pop(L, 1);
  }
  lua_pushboolean(L, check_status(L, astar_topology_would_disconnect(T->t, node, ids, n)));
  lua_remove(L, list);
  return 1;
}
