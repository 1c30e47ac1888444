/*
** lastar.c -- the Lua binding of the astar core: the C module "astar.core".
**
** This is the only file that knows Lua.  It defines the userdata types
** astar.Graph, astar.Grid and astar.Search (the reusable per-query state),
** checks every argument, parses find_path options once into an astar_query,
** bridges Lua heuristic / cost callbacks, and turns results into tables.
**
** Memory and errors.  Every piece of C memory that is alive while Lua code
** can run (callbacks may raise) is owned by a userdata with __gc: the core
** objects hang off Graph / Grid / Search userdata, created empty first and
** filled second.  A search runs inside one lua_pcall (not one per callback):
** the callbacks use plain lua_call, a Lua error unwinds to that pcall, the
** binding clears the "in use" flag and the topology lock, and rethrows the
** error value unchanged.  Nothing leaks and the topology stays usable.
**
** Re-entrancy.  While a search runs, its topology is locked: mutators raise
** "graph is being searched".  Read-only nested searches are fine: a search
** that finds the topology's cached Search busy gets a fresh one.
*/
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "astar.h"
#include "compat.h"

#define GRAPH_MT "astar.Graph"
#define GRID_MT "astar.Grid"
#define SEARCH_MT "astar.Search"
#define FIELD_MT "astar.Field"

enum { KIND_GRAPH = 1, KIND_GRID = 2 };

/* ------------------------------------------------------------------------ */
/* small helpers                                                              */
/* ------------------------------------------------------------------------ */

/*
** Every function this module registers is a C closure with two upvalues:
** its name and whether it is a method.  Argument errors name the function
** from there, not from the caller's debug information, so they read the same
** on every Lua and through aliases and tail calls (LuaJIT loses the caller's
** frame in a tail call and would say '?').  Debug information still decides
** whether self counts: a method called with ':' numbers its arguments from
** the first after self, one called with '.' from self; when the information
** is gone, ':' is assumed.  A bad self is "#1" either way: it only happens
** through '.' or by passing another object.
*/
static int arg_error(lua_State *L, int arg, const char *msg) {
  lua_Debug ar;
  const char *fname = lua_tostring(L, lua_upvalueindex(1));
  int method = lua_toboolean(L, lua_upvalueindex(2));
  if (fname == NULL) fname = "?";
    if (method && arg > 1) {
    int colon = 1;
    if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name != NULL)
      colon = ar.namewhat != NULL && strcmp(ar.namewhat, "method") == 0;
    if (colon) arg--;
  }
  return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, fname, msg);
}

/* Pushes a short description of the value at idx for error messages:
** numbers by value ("nan", "inf", "-1", "0.5"), strings quoted, booleans and
** nil by name, anything else by type name. */
static const char *describe(lua_State *L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: {
      double v = lua_tonumber(L, idx);
      char buf[64];
      if (v != v) return compat_pushstring(L, "nan");
      if (v == HUGE_VAL) return compat_pushstring(L, "inf");
      if (v == -HUGE_VAL) return compat_pushstring(L, "-inf");
      snprintf(buf, sizeof buf, "%.14g", v);
      return compat_pushstring(L, buf);
    }
    case LUA_TSTRING: {
      size_t len;
      const char *s = lua_tolstring(L, idx, &len);
      char buf[48];
      if (len > 40) { /* lua_pushfstring has no precision: cut it here */
        snprintf(buf, sizeof buf, "\"%.37s...\"", s);
        return compat_pushstring(L, buf);
      }
      return lua_pushfstring(L, "\"%s\"", s);
    }
            case LUA_TBOOLEAN:
      return compat_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
    case LUA_TUSERDATA:
      /* our types by name ("astar.Grid"): every metatable made here has one */
      if (luaL_getmetafield(L, idx, "__name")) {
        if (lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1);
        lua_pop(L, 1);
      }
      return compat_pushstring(L, "userdata");
    default: return compat_pushstring(L, luaL_typename(L, idx));
  }
}

static const char *describe_number(lua_State *L, double v) {
  const char *s;
  lua_pushnumber(L, v);
  s = describe(L, -1);
  lua_remove(L, -2);
  return s;
}

/* "<what> expected, got <type>" as a bad-argument error (lauxlib's wording;
** 5.3 has no public luaL_typeerror). */
/* The type name of the value at idx for "got ..." in messages: our
** userdata by their metatable's __name ("astar.Grid"), like 5.3+ would. */
static const char *type_name(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TUSERDATA && luaL_getmetafield(L, idx, "__name")) {
    const char *n = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (n != NULL) return n; /* the string stays on the stack while used */
    lua_pop(L, 1);
  }
  return luaL_typename(L, idx);
}

/* "<what> expected, got <type>" as a bad-argument error (lauxlib's wording;
** 5.3 has no public luaL_typeerror).  `what` must not live on the stack
** above arg: read the type first. */
static int type_error(lua_State *L, int arg, const char *what) {
  const char *got = type_name(L, arg);
  return arg_error(L, arg, lua_pushfstring(L, "%s expected, got %s", what, got));
}

/* A finite number, no string coercion: "4" is refused like any string. */
static double check_finite(lua_State *L, int arg, const char *name) {
  double v;
  if (lua_type(L, arg) != LUA_TNUMBER) type_error(L, arg, "number");
  v = lua_tonumber(L, arg);
  if (!isfinite(v))
    arg_error(L, arg, lua_pushfstring(L, "%s must be a finite number, got %s",
                                          name, describe(L, arg)));
  return v;
}

static double check_cost(lua_State *L, int arg, const char *name) {
  double v;
  if (lua_type(L, arg) != LUA_TNUMBER) type_error(L, arg, "number");
  v = lua_tonumber(L, arg);
  if (!(v >= 0) || !isfinite(v))
    arg_error(L, arg, lua_pushfstring(L, "%s must be a finite number >= 0, got %s",
                                          name, describe(L, arg)));
  return v;
}

/* An id in 1..count (what = "node", "edge", "cell"; owner = "graph",
** "grid"), returned 0-based.  Range errors say what exists. */
static int32_t check_id(lua_State *L, int arg, const char *what, int32_t count,
                        const char *owner) {
  double v;
  if (lua_type(L, arg) != LUA_TNUMBER) {
    const char *got = type_name(L, arg); /* before pushing anything */
    return (int32_t)arg_error(L, arg, lua_pushfstring(L, "%s id expected, got %s", what, got));
  }
  v = lua_tonumber(L, arg);
  if (v != floor(v) || !isfinite(v))
    arg_error(L, arg, lua_pushfstring(L, "%s id must be an integer, got %s",
                                          what, describe(L, arg)));
  if (v < 1 || v > count) {
    if (count == 0)
      arg_error(L, arg, lua_pushfstring(L, "%s %s does not exist (the %s has no %ss)",
                                            what, describe(L, arg), owner, what));
    arg_error(L, arg, lua_pushfstring(L, "%s %s does not exist (the %s has %d %s%s)",
                                          what, describe(L, arg), owner, (int)count,
                                          what, count == 1 ? "" : "s"));
  }
  return (int32_t)v - 1;
}

/* An integer in lo..hi (sizes, coordinates). */
static int32_t check_range(lua_State *L, int arg, const char *name, int32_t lo,
                           int32_t hi) {
  double v;
  if (lua_type(L, arg) != LUA_TNUMBER) type_error(L, arg, "number");
  v = lua_tonumber(L, arg);
  if (v != floor(v) || v < lo || v > hi)
    arg_error(L, arg, lua_pushfstring(L, "%s must be an integer in %d..%d, got %s",
                                          name, (int)lo, (int)hi, describe(L, arg)));
  return (int32_t)v;
}

/* luaL_checkudata with one message on every Lua: "astar.Grid expected, got
** astar.Graph" (5.1 would say "got userdata"). */
static void *check_ud(lua_State *L, int arg, const char *mt) {
  void *p = compat_testudata(L, arg, mt);
  if (p == NULL)
    arg_error(L, arg, lua_pushfstring(L, "%s expected, got %s", mt,
                                          lua_type(L, arg) == LUA_TUSERDATA
                                              ? describe(L, arg) : luaL_typename(L, arg)));
  return p;
}

static int check_bool(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TBOOLEAN) type_error(L, arg, "boolean");
  return lua_toboolean(L, arg);
}

static int is_callable(lua_State *L, int idx) {
  int callable;
  if (lua_type(L, idx) == LUA_TFUNCTION) return 1;
  if (!luaL_getmetafield(L, idx, "__call")) return 0;
  callable = lua_type(L, -1) != LUA_TNIL;
  lua_pop(L, 1);
  return callable;
}

static void *alloc_ud(lua_State *L, astar_alloc_fn *f) {
  void *ud;
  *f = (astar_alloc_fn)lua_getallocf(L, &ud);
  return ud;
}

/* Raises the error for a failed core call (statuses < 0). */
static int core_error(lua_State *L, int rc, const char *fname) {
  if (rc == ASTAR_ENOMEM) return luaL_error(L, "not enough memory");
  if (rc == ASTAR_EBUSY)
    return luaL_error(L, "cannot call '%s': graph is being searched", fname);
  return luaL_error(L, "%s: %s", fname, astar_status_name(rc));
}

/* ------------------------------------------------------------------------ */
/* Search userdata: the reusable per-query state and its scratch buffers      */
/* ------------------------------------------------------------------------ */

typedef struct lsearch {
  astar_search *s;
  int in_use;
  astar_alloc_fn alloc;
  void *ud;
  double *tagf;                 /* per-query tag factors */
  size_t tagf_cap;
  int32_t *nodes, *edges;       /* path scratch (one capacity each: the
                                ** allocator must be told each block's size) */
  size_t nodes_cap, edges_cap;
} lsearch;

static int l_search_gc(lua_State *L) {
  lsearch *S = (lsearch *)check_ud(L, 1, SEARCH_MT);
  astar_search_free(S->s);
  S->s = NULL;
  if (S->tagf) S->alloc(S->ud, S->tagf, S->tagf_cap * sizeof(double), 0);
  if (S->nodes) S->alloc(S->ud, S->nodes, S->nodes_cap * sizeof(int32_t), 0);
  if (S->edges) S->alloc(S->ud, S->edges, S->edges_cap * sizeof(int32_t), 0);
  S->tagf = NULL;
  S->nodes = S->edges = NULL;
  S->tagf_cap = S->nodes_cap = S->edges_cap = 0;
  return 0;
}

/* Pushes a new, empty Search userdata (create first, acquire second). */
static lsearch *new_search(lua_State *L) {
  lsearch *S = (lsearch *)compat_newud(L, sizeof(lsearch));
  memset(S, 0, sizeof *S);
  S->ud = alloc_ud(L, &S->alloc);
  luaL_getmetatable(L, SEARCH_MT);
  lua_setmetatable(L, -2);
  S->s = astar_search_new(S->alloc, S->ud);
  if (S->s == NULL) luaL_error(L, "not enough memory");
  return S;
}

/* Grows a scratch array owned by S; raises on failure (nothing is lost:
** the old block stays owned). */
static void *grow_scratch(lua_State *L, lsearch *S, void *p, size_t *cap,
                          size_t need, size_t size) {
  size_t ncap = *cap ? *cap : 16;
  void *np;
  if (need <= *cap) return p;
  while (ncap < need) ncap *= 2;
  np = S->alloc(S->ud, p, *cap * size, ncap * size);
  if (np == NULL) luaL_error(L, "not enough memory");
  *cap = ncap;
  return np;
}

/* ------------------------------------------------------------------------ */
/* Graph and Grid userdata                                                    */
/* ------------------------------------------------------------------------ */

/* Both topologies share this header; the metatable tells them apart.  The
** user value is a table { tags = {name -> id}, names = {id -> name},
** search = <cached Search> }. */
typedef struct ltopo {
  int kind;
  astar_graph *graph;
  astar_grid *grid;
} ltopo;

static ltopo *check_topo_any(lua_State *L, int idx, const char *mt,
                             const char *what) {
  ltopo *T = (ltopo *)check_ud(L, idx, mt);
  if (T->graph == NULL && T->grid == NULL)
    luaL_error(L, "attempt to use a closed %s", what);
  return T;
}

#define check_graph(L, i) check_topo_any((L), (i), GRAPH_MT, "graph")
#define check_grid(L, i) check_topo_any((L), (i), GRID_MT, "grid")

static int topo_locked(const ltopo *T) {
  return T->kind == KIND_GRAPH ? astar_graph_locked(T->graph)
                               : astar_grid_locked(T->grid);
}

static void topo_lock(ltopo *T, int delta) {
  if (T->kind == KIND_GRAPH) astar_graph_lock(T->graph, delta);
  else astar_grid_lock(T->grid, delta);
}

/* Mutators call this first: a callback must not reshape what is searched. */
static void check_unlocked(lua_State *L, ltopo *T, const char *fname) {
  if (topo_locked(T))
    luaL_error(L, "cannot call '%s': %s is being searched", fname,
               T->kind == KIND_GRAPH ? "graph" : "grid");
}

/* Pushes a fresh topology userdata with its user-value table. */
static ltopo *new_topo(lua_State *L, int kind) {
  ltopo *T = (ltopo *)compat_newud(L, sizeof(ltopo));
  memset(T, 0, sizeof *T);
  T->kind = kind;
  luaL_getmetatable(L, kind == KIND_GRAPH ? GRAPH_MT : GRID_MT);
  lua_setmetatable(L, -2);
  lua_createtable(L, 0, 3);
  lua_newtable(L);
  lua_setfield(L, -2, "tags");
  lua_newtable(L);
  lua_setfield(L, -2, "names");
  compat_setuv(L, -2);
  return T;
}

/* __gc and __close: idempotent; a closed object raises on use. */
static int topo_release(lua_State *L, const char *mt) {
  ltopo *T = (ltopo *)check_ud(L, 1, mt);
  if ((T->graph || T->grid) && topo_locked(T))
    return luaL_error(L, "cannot close a %s while it is being searched",
                      T->kind == KIND_GRAPH ? "graph" : "grid");
  astar_graph_free(T->graph);
  astar_grid_free(T->grid);
  T->graph = NULL;
  T->grid = NULL;
  return 0;
}

static int l_graph_gc(lua_State *L) { return topo_release(L, GRAPH_MT); }
static int l_grid_gc(lua_State *L) { return topo_release(L, GRID_MT); }

/* Interns a tag name for the topology at idx: returns its id (>= 1).  The
** user value keeps tags[name] = id and names[id] = name. */
static int32_t intern_tag(lua_State *L, int idx, int arg, int32_t max) {
  int32_t id;
  compat_getuv(L, idx);
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
  if (id > max) luaL_error(L, "too many distinct tags (at most %d)", (int)max);
  lua_pushvalue(L, arg);
  lua_rawseti(L, -2, id);
  lua_pushvalue(L, arg);
  lua_pushnumber(L, id);
  lua_rawset(L, -4);
  lua_pop(L, 3);
  return id;
}

/* Pushes the name of tag id (nil for 0) of the topology at idx. */
static void push_tag_name(lua_State *L, int idx, int32_t tag) {
  if (tag == 0) {
    lua_pushnil(L);
    return;
  }
  compat_getuv(L, idx);
  lua_getfield(L, -1, "names");
  lua_rawgeti(L, -1, tag);
  lua_replace(L, -3);
  lua_pop(L, 1);
}

/* ------------------------------------------------------------------------ */
/* Graph methods                                                              */
/* ------------------------------------------------------------------------ */

static int l_graph_new(lua_State *L) {
  astar_alloc_fn f;
  void *ud = alloc_ud(L, &f);
  ltopo *T = new_topo(L, KIND_GRAPH);
  T->graph = astar_graph_new(f, ud);
  if (T->graph == NULL) return luaL_error(L, "not enough memory");
  return 1;
}

static int32_t check_node(lua_State *L, ltopo *T, int arg) {
  return check_id(L, arg, "node", astar_graph_node_count(T->graph), "graph");
}

static int32_t check_edge(lua_State *L, ltopo *T, int arg) {
  return check_id(L, arg, "edge", astar_graph_edge_count(T->graph), "graph");
}

static int32_t opt_tag(lua_State *L, int arg) {
  if (lua_isnoneornil(L, arg)) return 0;
  if (lua_type(L, arg) != LUA_TSTRING) type_error(L, arg, "string (tag name)");
  return intern_tag(L, 1, arg, INT32_MAX - 1);
}

static int l_graph_add_node(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  double x = check_finite(L, 2, "x"), y = check_finite(L, 3, "y");
  double z = lua_isnoneornil(L, 4) ? 0 : check_finite(L, 4, "z");
  int32_t id;
  int rc;
  check_unlocked(L, T, "add_node");
  if ((rc = astar_graph_add_node(T->graph, x, y, z, &id)) != ASTAR_OK)
    return core_error(L, rc, "add_node");
  lua_pushinteger(L, (lua_Integer)id + 1);
  return 1;
}

static int l_graph_add_edge(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  int32_t from = check_node(L, T, 2), to = check_node(L, T, 3), tag, id;
  double cost = check_cost(L, 4, "cost");
  int rc;
  check_unlocked(L, T, "add_edge");
  tag = opt_tag(L, 5);
  if ((rc = astar_graph_add_edge(T->graph, from, to, cost, tag, &id)) != ASTAR_OK)
    return core_error(L, rc, "add_edge");
  lua_pushinteger(L, (lua_Integer)id + 1);
  return 1;
}

static int l_graph_connect(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  int32_t a = check_node(L, T, 2), b = check_node(L, T, 3), tag, e1, e2;
  double cost = check_cost(L, 4, "cost");
  int rc;
  check_unlocked(L, T, "connect");
  tag = opt_tag(L, 5);
  if ((rc = astar_graph_add_edge(T->graph, a, b, cost, tag, &e1)) != ASTAR_OK)
    return core_error(L, rc, "connect");
  if ((rc = astar_graph_add_edge(T->graph, b, a, cost, tag, &e2)) != ASTAR_OK)
    return core_error(L, rc, "connect"); /* e1 stays: the graph is valid */
  lua_pushinteger(L, (lua_Integer)e1 + 1);
  lua_pushinteger(L, (lua_Integer)e2 + 1);
  return 2;
}

static int l_graph_node_count(lua_State *L) {
  lua_pushinteger(L, astar_graph_node_count(check_graph(L, 1)->graph));
  return 1;
}

static int l_graph_edge_count(lua_State *L) {
  lua_pushinteger(L, astar_graph_edge_count(check_graph(L, 1)->graph));
  return 1;
}

static int l_graph_position(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  double xyz[3];
  astar_graph_position(T->graph, check_node(L, T, 2), xyz);
  lua_pushnumber(L, xyz[0]);
  lua_pushnumber(L, xyz[1]);
  lua_pushnumber(L, xyz[2]);
  return 3;
}

static int l_graph_edge(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  int32_t from, to, tag;
  double cost;
  astar_graph_edge(T->graph, check_edge(L, T, 2), &from, &to, &cost, &tag);
  lua_pushinteger(L, (lua_Integer)from + 1);
  lua_pushinteger(L, (lua_Integer)to + 1);
  lua_pushnumber(L, cost);
  push_tag_name(L, 1, tag);
  return 4;
}

static int l_graph_set_cost(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  int32_t e = check_edge(L, T, 2);
  double cost = check_cost(L, 3, "cost");
  check_unlocked(L, T, "set_cost");
  astar_graph_set_cost(T->graph, e, cost);
  return 0;
}

static int l_graph_set_enabled(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  int32_t n = check_node(L, T, 2);
  int on = check_bool(L, 3);
  check_unlocked(L, T, "set_enabled");
  astar_graph_set_enabled(T->graph, n, on);
  return 0;
}

static int l_graph_is_enabled(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  lua_pushboolean(L, astar_graph_enabled(T->graph, check_node(L, T, 2)));
  return 1;
}

static int l_graph_tostring(lua_State *L) {
  ltopo *T = (ltopo *)check_ud(L, 1, GRAPH_MT);
  if (T->graph == NULL) lua_pushstring(L, "astar.Graph (closed)");
  else
    lua_pushfstring(L, "astar.Graph (%d nodes, %d edges)",
                    (int)astar_graph_node_count(T->graph),
                    (int)astar_graph_edge_count(T->graph));
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Grid methods                                                               */
/* ------------------------------------------------------------------------ */

static const char *const diagonal_names[] = {"never", "no_corner_cutting",
                                             "one_obstacle", "always", NULL};

static const char *const heuristic_names[] = {
    "zero", "euclidean", "manhattan", "octile", "chebyshev", "bisector",
    "full_bisector", NULL};
static const char *const stop_names[] = {"expand", "first_hit", "optimal", NULL};
static const char *const tie_names[] = {"high_g", "fifo", NULL};

/* A number option that must be an integer >= 1 (max_expansions). */
static uint64_t opt_count(lua_State *L, int arg, int v, const char *name) {
  double d = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : 0;
  if (lua_type(L, v) != LUA_TNUMBER || !(d >= 1) || d != floor(d) || d > 9e15)
    arg_error(L, arg, lua_pushfstring(L, "%s must be an integer >= 1, got %s", name,
                                      describe(L, v)));
  return (uint64_t)d;
}


/* Reads a string option that must be one of names[]; raises naming the
** option and the accepted values (after `also`, e.g. "a function or "). */
static int check_choice_or(lua_State *L, int arg, int vidx, const char *opt,
                           const char *const names[], const char *also) {
  int i;
  if (lua_type(L, vidx) == LUA_TSTRING) {
    const char *s = lua_tostring(L, vidx);
    for (i = 0; names[i]; i++)
      if (strcmp(s, names[i]) == 0) return i;
  }
  {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (i = 0; names[i]; i++) {
      lua_pushfstring(L, "%s\"%s\"", i == 0 ? "" : names[i + 1] ? ", " : " or ",
                      names[i]);
      luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
  }
  {
    /* sequenced: describe() pushes, which would move index -1 */
    const char *choices = lua_tostring(L, -1);
    const char *got = describe(L, vidx);
    return arg_error(L, arg, lua_pushfstring(L, "%s must be %s%s, got %s", opt,
                                                 also, choices, got));
  }
}

static int check_choice(lua_State *L, int arg, int vidx, const char *opt,
                        const char *const names[]) {
  return check_choice_or(L, arg, vidx, opt, names, "");
}

/* Checks that every key of the table at arg is one of names[]. */
static void check_keys(lua_State *L, int arg, const char *const names[]) {
  lua_pushnil(L);
    while (lua_next(L, arg)) {
    int ok = 0;
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      int i;
      for (i = 0; names[i] && !ok; i++) ok = strcmp(lua_tostring(L, -1), names[i]) == 0;
    }
    if (!ok)
      arg_error(L, arg, lua_pushfstring(L, "unknown option %s", describe(L, -1)));
  }
}

static int l_grid_new(lua_State *L) {
  static const char *const keys[] = {"diagonal", NULL};
  astar_alloc_fn f;
  void *ud = alloc_ud(L, &f);
  int32_t w = check_range(L, 1, "width", 1, ASTAR_GRID_MAX_SIDE);
  int32_t h = check_range(L, 2, "height", 1, ASTAR_GRID_MAX_SIDE);
  int diag = ASTAR_DIAG_NO_CORNER_CUTTING;
  ltopo *T;
  if (!lua_isnoneornil(L, 3)) {
    if (!lua_istable(L, 3)) type_error(L, 3, "table");
    check_keys(L, 3, keys);
    lua_getfield(L, 3, "diagonal");
    if (!lua_isnil(L, -1)) diag = check_choice(L, 3, lua_gettop(L), "diagonal", diagonal_names);
    lua_pop(L, 1);
  }
  if ((double)w * h >= (double)(1 << 30))
    return arg_error(L, 2, "grid too large (width * height must be below 2^30)");
  T = new_topo(L, KIND_GRID);
  T->grid = astar_grid_new(w, h, diag, f, ud);
  if (T->grid == NULL) return luaL_error(L, "not enough memory");
  return 1;
}

/* 1-based x at arg, y at arg + 1 in a w x h area -> 0-based cell id (and
** coordinates). */
static int32_t check_coords(lua_State *L, int arg, int32_t w, int32_t h,
                            int32_t *px, int32_t *py) {
  int32_t x = check_range(L, arg, "x", 1, w) - 1;
  int32_t y = check_range(L, arg + 1, "y", 1, h) - 1;
  if (px) *px = x;
  if (py) *py = y;
  return y * w + x;
}

static int32_t check_xy(lua_State *L, ltopo *T, int arg, int32_t *px, int32_t *py) {
  return check_coords(L, arg, astar_grid_width(T->grid), astar_grid_height(T->grid),
                      px, py);
}

static int32_t check_cell(lua_State *L, ltopo *T, int arg) {
  return check_id(L, arg, "cell", astar_grid_width(T->grid) * astar_grid_height(T->grid),
                  "grid");
}

static int l_grid_set_blocked(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t x, y;
  int b;
  check_xy(L, T, 2, &x, &y);
  b = check_bool(L, 4);
  check_unlocked(L, T, "set_blocked");
  astar_grid_set_blocked(T->grid, x, y, b);
  return 0;
}

static int l_grid_is_blocked(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t x, y;
  check_xy(L, T, 2, &x, &y);
  lua_pushboolean(L, astar_grid_blocked(T->grid, x, y));
  return 1;
}

static int l_grid_set_cost(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t x, y;
  double c;
  int rc;
  check_xy(L, T, 2, &x, &y);
  c = check_cost(L, 4, "cost");
  check_unlocked(L, T, "set_cost");
  if ((rc = astar_grid_set_cost(T->grid, x, y, c)) != ASTAR_OK)
    return core_error(L, rc, "set_cost");
  return 0;
}

static int l_grid_get_cost(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t x, y;
  double c;
  check_xy(L, T, 2, &x, &y);
  astar_grid_cost(T->grid, x, y, &c);
  lua_pushnumber(L, c);
  return 1;
}

static int l_grid_set_tag(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t x, y, tag = 0;
  int rc;
  check_xy(L, T, 2, &x, &y);
  if (!lua_isnoneornil(L, 4)) {
    if (lua_type(L, 4) != LUA_TSTRING) type_error(L, 4, "string (tag name)");
  }
  check_unlocked(L, T, "set_tag");
  if (!lua_isnoneornil(L, 4)) tag = intern_tag(L, 1, 4, 65535);
  if ((rc = astar_grid_set_tag(T->grid, x, y, tag)) != ASTAR_OK)
    return core_error(L, rc, "set_tag");
  return 0;
}

static int l_grid_get_tag(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t x, y, tag;
  check_xy(L, T, 2, &x, &y);
  astar_grid_tag(T->grid, x, y, &tag);
  push_tag_name(L, 1, tag);
  return 1;
}

static int l_grid_id(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  lua_pushinteger(L, (lua_Integer)check_xy(L, T, 2, NULL, NULL) + 1);
  return 1;
}

static int l_grid_xy(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t c = check_cell(L, T, 2), w = astar_grid_width(T->grid);
  lua_pushinteger(L, c % w + 1);
  lua_pushinteger(L, c / w + 1);
  return 2;
}

static int l_grid_size(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  lua_pushinteger(L, astar_grid_width(T->grid));
  lua_pushinteger(L, astar_grid_height(T->grid));
  return 2;
}

static int l_grid_diagonal(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  lua_pushstring(L, diagonal_names[astar_grid_diagonal(T->grid)]);
  return 1;
}

static int l_grid_line_of_sight(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t x0, y0, x1, y1;
  check_xy(L, T, 2, &x0, &y0);
  check_xy(L, T, 4, &x1, &y1);
  lua_pushboolean(L, astar_grid_line_of_sight(T->grid, x0, y0, x1, y1) == 1);
  return 1;
}

/* Bytes held in C for a topology: its own storage plus its cached search
** state (which keeps the size of the largest query run on it). */
static size_t topo_bytes(lua_State *L, ltopo *T) {
  size_t n = T->kind == KIND_GRAPH ? 0 : astar_grid_bytes(T->grid);
  lsearch *S;
  compat_getuv(L, 1);
  lua_getfield(L, -1, "search");
  S = (lsearch *)compat_testudata(L, -1, SEARCH_MT);
  if (S != NULL && S->s != NULL)
    n += astar_search_bytes(S->s) + S->tagf_cap * sizeof(double) +
         (S->nodes_cap + S->edges_cap) * sizeof(int32_t);
  lua_pop(L, 2);
  return n;
}

static int l_grid_memory(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  lua_pushinteger(L, (lua_Integer)topo_bytes(L, T));
  return 1;
}

static int l_grid_tostring(lua_State *L) {
  ltopo *T = (ltopo *)check_ud(L, 1, GRID_MT);
  if (T->grid == NULL) lua_pushstring(L, "astar.Grid (closed)");
  else
    lua_pushfstring(L, "astar.Grid (%dx%d, diagonal %s)",
                    (int)astar_grid_width(T->grid), (int)astar_grid_height(T->grid),
                    diagonal_names[astar_grid_diagonal(T->grid)]);
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Field userdata: a per-cell number array owned by Lua's allocator           */
/* ------------------------------------------------------------------------ */

/* The values live inside the userdata block itself (freed by the GC with it),
** in cell id order (y * w + x), so a search reads them without a copy.  The
** user value is the grid the field was made for. */
typedef struct lfield {
  int32_t w, h;
  int dirs;         /* made by distances(): a direction byte per cell follows v */
  int toward;       /* distances to the sources (1) or from them (0) */
  double v[];
} lfield;

/* The direction bytes of a distance field (255: none), after the values. */
static unsigned char *field_dirs(lfield *F) {
  return (unsigned char *)(F->v + (size_t)F->w * (size_t)F->h);
}

static lfield *check_field(lua_State *L, int idx) {
  return (lfield *)check_ud(L, idx, FIELD_MT);
}

/* Pushes a new field of the grid at index gidx, every value `init`; with
** dirs, room for a direction byte per cell too. */
static lfield *new_field_of(lua_State *L, int gidx, ltopo *T, double init, int dirs) {
  int32_t w = astar_grid_width(T->grid), h = astar_grid_height(T->grid), i;
  size_t n = (size_t)w * (size_t)h;
  lfield *F = (lfield *)compat_newud(L, offsetof(lfield, v) + n * sizeof(double) +
                                            (dirs ? n : 0));
  F->w = w;
  F->h = h;
  F->dirs = dirs;
  F->toward = 1;
  for (i = 0; (size_t)i < n; i++) F->v[i] = init;
  luaL_getmetatable(L, FIELD_MT);
  lua_setmetatable(L, -2);
  lua_createtable(L, 0, 1);   /* a table: 5.1's environments must be tables */
  lua_pushvalue(L, gidx);
  lua_setfield(L, -2, "grid");
  compat_setuv(L, -2);
  return F;
}

static lfield *new_field(lua_State *L, int gidx, ltopo *T, double init) {
  return new_field_of(L, gidx, T, init, 0);
}

static lfield *new_distance_field(lua_State *L, int gidx, ltopo *T) {
  return new_field_of(L, gidx, T, HUGE_VAL, 1);
}

/* field:next_step(x, y) -> x2, y2: on a field made by grid:distances, the
** neighbour to move to on a cheapest route toward the nearest source (with
** the same modifiers the distances used); nil at a source or where no
** source can be reached. */
static int l_field_next_step(lua_State *L) {
  static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  static const int dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  lfield *F = check_field(L, 1);
  int32_t x, y, c = check_coords(L, 2, F->w, F->h, &x, &y);
  int d;
  if (!F->dirs)
    return luaL_error(L, "next_step needs a field made by grid:distances");
  d = field_dirs(F)[c];
  if (d == 255) return 0;
  /* a reverse link is the step to take; a forward link is the step that
  ** came in from the source side: walk it backwards */
  if (F->toward) {
    x += dx[d];
    y += dy[d];
  } else {
    x -= dx[d];
    y -= dy[d];
  }
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  return 2;
}

static int l_field_new(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  double init = lua_isnoneornil(L, 2) ? 0 : check_finite(L, 2, "value");
  new_field(L, 1, T, init);
  return 1;
}

static int l_field_get(lua_State *L) {
  lfield *F = check_field(L, 1);
  lua_pushnumber(L, F->v[check_coords(L, 2, F->w, F->h, NULL, NULL)]);
  return 1;
}

static int l_field_set(lua_State *L) {
  lfield *F = check_field(L, 1);
  int32_t c = check_coords(L, 2, F->w, F->h, NULL, NULL);
  F->v[c] = check_finite(L, 4, "value");
  return 0;
}

static int l_field_fill(lua_State *L) {
  lfield *F = check_field(L, 1);
  double v = check_finite(L, 2, "value");
  size_t i, n = (size_t)F->w * (size_t)F->h;
  for (i = 0; i < n; i++) F->v[i] = v;
  return 0;
}

/* Adds v to every cell whose centre is within `radius` of (x, y)'s. */
static int l_field_add_disc(lua_State *L) {
  lfield *F = check_field(L, 1);
  int32_t cx, cy, x, y, x0, x1, y0, y1, r;
  double radius, v;
  check_coords(L, 2, F->w, F->h, &cx, &cy);
  radius = check_cost(L, 4, "radius");
  v = check_finite(L, 5, "value");
  r = radius > 2.0 * ASTAR_GRID_MAX_SIDE ? 2 * ASTAR_GRID_MAX_SIDE : (int32_t)radius;
  x0 = cx - r < 0 ? 0 : cx - r;
  y0 = cy - r < 0 ? 0 : cy - r;
  x1 = cx + r >= F->w ? F->w - 1 : cx + r;
  y1 = cy + r >= F->h ? F->h - 1 : cy + r;
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      double dx = x - cx, dy = y - cy;
      if (dx * dx + dy * dy <= radius * radius) F->v[(size_t)y * (size_t)F->w + (size_t)x] += v;
    }
  return 0;
}

static int l_field_size(lua_State *L) {
  lfield *F = check_field(L, 1);
  lua_pushinteger(L, F->w);
  lua_pushinteger(L, F->h);
  return 2;
}

static int l_field_tostring(lua_State *L) {
  lfield *F = check_field(L, 1);
  lua_pushfstring(L, "astar.Field (%dx%d)", (int)F->w, (int)F->h);
  return 1;
}

/* grid:visible_from(x, y [, radius]) -> field: 1 where (x, y) sees the cell. */
static int l_grid_visible_from(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t x, y;
  double radius = -1;
  lfield *F;
  check_xy(L, T, 2, &x, &y);
  if (!lua_isnoneornil(L, 4)) radius = check_cost(L, 4, "radius");
  F = new_field(L, 1, T, 0);
  astar_grid_visible_from(T->grid, x, y, radius, F->v);
  return 1;
}

/* A field option (penalty, forbid) must be a field of this grid's size. */
static const double *opt_field(lua_State *L, ltopo *T, int arg, int vidx,
                               const char *name) {
    lfield *F = (lfield *)compat_testudata(L, vidx, FIELD_MT);
  if (F == NULL) {
    arg_error(L, arg, lua_pushfstring(L, "%s must be an astar.Field, got %s", name,
                                          describe(L, vidx)));
    return NULL; /* not reached: luaL_argerror raises */
  }
  if (F->w != astar_grid_width(T->grid) || F->h != astar_grid_height(T->grid))
    arg_error(L, arg, lua_pushfstring(L, "%s field is %dx%d but the grid is %dx%d",
                                          name, (int)F->w, (int)F->h,
                                          (int)astar_grid_width(T->grid),
                                          (int)astar_grid_height(T->grid)));
  return F->v;
}

/* ------------------------------------------------------------------------ */
/* Grids from text, and back                                                  */
/* ------------------------------------------------------------------------ */

/* How one map character becomes a cell. */
typedef struct cellspec {
  int known, blocked;
  double cost;
  int has_tag;          /* tag name at stack index tag_idx */
  int tag_idx;
} cellspec;

/* Reads the legend entry at vidx: true / false (open / blocked), a number
** (open, that cost), a string (open, that tag) or a table { blocked =, cost
** =, tag = }. */
static void read_cellspec(lua_State *L, int vidx, const char *key, cellspec *c) {
  c->known = 1;
  c->blocked = 0;
  c->cost = 1;
  c->has_tag = 0;
  switch (lua_type(L, vidx)) {
    case LUA_TBOOLEAN: c->blocked = !lua_toboolean(L, vidx); return;
    case LUA_TNUMBER:
      c->cost = lua_tonumber(L, vidx);
      if (c->cost >= 0 && isfinite(c->cost)) return;
      break;
    case LUA_TSTRING:
      c->has_tag = 1;
      c->tag_idx = vidx;
      return;
    case LUA_TTABLE: {
      int ok = 1;
      lua_getfield(L, vidx, "blocked");
      if (!lua_isnil(L, -1)) {
        ok = lua_type(L, -1) == LUA_TBOOLEAN;
        c->blocked = lua_toboolean(L, -1);
      }
      lua_getfield(L, vidx, "cost");
      if (!lua_isnil(L, -1)) {
        c->cost = lua_tonumber(L, -1);
        ok = ok && lua_type(L, -1) == LUA_TNUMBER && c->cost >= 0 && isfinite(c->cost);
      }
      lua_pop(L, 2);
      lua_getfield(L, vidx, "tag");   /* stays on the stack while used */
      if (!lua_isnil(L, -1)) {
        ok = ok && lua_type(L, -1) == LUA_TSTRING;
        c->has_tag = 1;
        c->tag_idx = lua_gettop(L);
      } else {
        lua_pop(L, 1);
      }
      if (ok) return;
      break;
    }
    default: break;
  }
  arg_error(L, 2, lua_pushfstring(L,
      "legend[%s] must be true, false, a cost, a tag name or { blocked =, cost =, tag = }, got %s",
      key, describe(L, vidx)));
}

/* astar.grid_from_string(text [, legend [, opts]]) -> grid.  Rows are lines
** (LF or CRLF); '.' is open, '#' and '@' blocked; other characters come from
** the legend (legend.default covers every character not listed). */
static int l_grid_from_string(lua_State *L) {
  static const char *const keys[] = {"diagonal", NULL};
  size_t len, i, line_start = 0;
  const char *text;
  if (lua_type(L, 1) != LUA_TSTRING) type_error(L, 1, "string");
  text = lua_tolstring(L, 1, &len);
  int32_t w = -1, h = 0, x, y;
  int diag = ASTAR_DIAG_NO_CORNER_CUTTING, gidx;
  cellspec spec[256];
  ltopo *T;
  astar_alloc_fn f;
  void *ud = alloc_ud(L, &f);
  if (!lua_isnoneornil(L, 2) && !lua_istable(L, 2)) type_error(L, 2, "table");
  if (!lua_isnoneornil(L, 3)) {
    if (!lua_istable(L, 3)) type_error(L, 3, "table");
    check_keys(L, 3, keys);
    lua_getfield(L, 3, "diagonal");
    if (!lua_isnil(L, -1)) diag = check_choice(L, 3, lua_gettop(L), "diagonal", diagonal_names);
    lua_pop(L, 1);
  }
  /* measure: every non-empty row has the same width; trailing blank lines
  ** are ignored, inner ones are not */
  for (i = 0; i <= len; i++) {
    if (i == len || text[i] == '\n') {
      size_t end = i;
      if (end > line_start && text[end - 1] == '\r') end--;
      if (end > line_start) {
        int32_t rw = (int32_t)(end - line_start);
        if (w >= 0 && rw != w)
          return arg_error(L, 1, lua_pushfstring(L,
              "row %d has %d cells, row 1 has %d", (int)h + 1, (int)rw, (int)w));
        if (rw > ASTAR_GRID_MAX_SIDE || h == ASTAR_GRID_MAX_SIDE)
          return arg_error(L, 1, "map too large (at most 65535 x 65535)");
        w = rw;
        h++;
      } else if (i < len) {
        /* a blank line: fine only if nothing but blank lines follow */
        size_t j;
        for (j = i; j < len && (text[j] == '\n' || text[j] == '\r'); j++) {}
        if (j < len && h > 0)
          return arg_error(L, 1, lua_pushfstring(L, "blank line after row %d", (int)h));
      }
      line_start = i + 1;
    }
  }
  if (w <= 0) return arg_error(L, 1, "no rows in the map");
  if ((double)w * h >= (double)(1 << 30))
    return arg_error(L, 1, "map too large (width * height must be below 2^30)");
  for (i = 0; i < 256; i++) spec[i].known = 0;
  spec['.'].known = spec['#'].known = spec['@'].known = 1;
  spec['.'].blocked = 0;
  spec['#'].blocked = spec['@'].blocked = 1;
  spec['.'].cost = spec['#'].cost = spec['@'].cost = 1;
  spec['.'].has_tag = spec['#'].has_tag = spec['@'].has_tag = 0;
  T = new_topo(L, KIND_GRID);
  gidx = lua_gettop(L);
  T->grid = astar_grid_new(w, h, diag, f, ud);
  if (T->grid == NULL) return luaL_error(L, "not enough memory");
  if (lua_istable(L, 2)) {
    lua_pushnil(L);
    while (lua_next(L, 2)) {               /* key, value */
      int vidx = lua_gettop(L);
      size_t kl;
      const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &kl) : NULL;
      if (k == NULL || (kl != 1 && strcmp(k, "default") != 0))
        return arg_error(L, 2, lua_pushfstring(L,
            "legend keys must be single characters or \"default\", got %s", describe(L, -2)));
      int keep;
      luaL_checkstack(L, 6, "too many legend entries");
      if (kl == 1) {
        cellspec *c = &spec[(unsigned char)k[0]];
        read_cellspec(L, vidx, lua_pushfstring(L, "\"%s\"", k), c);
        keep = c->has_tag;
      } else {
        cellspec d;
        read_cellspec(L, vidx, "\"default\"", &d);
        for (i = 0; i < 256; i++)
          if (!spec[i].known && i != '\n' && i != '\r') spec[i] = d;
        keep = d.has_tag;
      }
      /* a tag name must stay on the stack until the cells are filled: leave
      ** it there and give lua_next a copy of the key */
      if (keep) lua_pushvalue(L, vidx - 1);
      else lua_settop(L, vidx - 1);
    }
  }
  /* fill the cells */
  x = y = 0;
  for (i = 0; i < len && y < h; i++) {
    unsigned char ch = (unsigned char)text[i];
    cellspec *c;
    /* CR only as part of a line end (CRLF, or a last CR): elsewhere it is an
    ** unknown character, not silently dropped */
    if (ch == '\r' && (i + 1 == len || text[i + 1] == '\n')) continue;
    if (ch == '\n') {
      if (x > 0) y++;
      x = 0;
      continue;
    }
    c = &spec[ch];
    if (!c->known) {
      char buf[8];
      if (ch >= 32 && ch < 127) snprintf(buf, sizeof buf, "'%c'", ch);
      else snprintf(buf, sizeof buf, "\\%d", ch);
      return arg_error(L, 1, lua_pushfstring(L,
          "unknown character %s at row %d, column %d (add it to the legend)", buf,
          (int)y + 1, (int)x + 1));
    }
    if (c->blocked) astar_grid_set_blocked(T->grid, x, y, 1);
    if (c->cost != 1 && astar_grid_set_cost(T->grid, x, y, c->cost) != ASTAR_OK)
      return luaL_error(L, "not enough memory");
    if (c->has_tag) {
      int32_t tag;
      lua_pushvalue(L, c->tag_idx);
      tag = intern_tag(L, gidx, lua_gettop(L), 65535);
      lua_pop(L, 1);
      if (astar_grid_set_tag(T->grid, x, y, tag) != ASTAR_OK)
        return luaL_error(L, "not enough memory");
    }
    x++;
  }
  lua_pushvalue(L, gidx);
  return 1;
}

/* grid:to_string([path]) -> the map as text: '#' blocked, '.' open, '~' open
** with a cost other than 1 or a tag; a path (a find_path result or a list of
** cell ids) is drawn with '*', its first cell 'S' and its last 'G'. */
static int l_grid_to_string(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t w = astar_grid_width(T->grid), h = astar_grid_height(T->grid), x, y;
  size_t n = (size_t)w * (size_t)h;
  char *cells;
  luaL_Buffer b;
  int pidx = 0;
  if (!lua_isnoneornil(L, 2)) {
    if (!lua_istable(L, 2)) type_error(L, 2, "table (a path or a list of cell ids)");
    lua_getfield(L, 2, "nodes");
    if (!lua_istable(L, -1)) {
      lua_pop(L, 1);
      lua_pushvalue(L, 2);
    }
    pidx = lua_gettop(L);
  }
  cells = (char *)lua_newuserdata(L, n);   /* scratch, collected with the call */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      double c;
      int32_t tag;
      astar_grid_cost(T->grid, x, y, &c);
      astar_grid_tag(T->grid, x, y, &tag);
      cells[(size_t)y * (size_t)w + (size_t)x] = astar_grid_blocked(T->grid, x, y) ? '#'
                                 : (c != 1 || tag != 0) ? '~' : '.';
    }
  if (pidx) {
    int32_t i, len = (int32_t)compat_rawlen(L, pidx);
    for (i = 1; i <= len; i++) {
      double v;
      lua_rawgeti(L, pidx, i);
      v = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 1 || v > (double)n)
        return arg_error(L, 2, lua_pushfstring(L, "path entry %d is not a cell id of this grid, got %s",
                                                   (int)i, describe(L, -1)));
      cells[(size_t)v - 1] = i == 1 ? 'S' : i == len ? 'G' : '*';
      lua_pop(L, 1);
    }
  }
  luaL_buffinit(L, &b);
  for (y = 0; y < h; y++) {
    luaL_addlstring(&b, cells + (size_t)y * (size_t)w, (size_t)w);
    luaL_addchar(&b, '\n');
  }
  luaL_pushresult(&b);
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Precomputed heuristics (cluster tables, landmarks): evaluated in C        */
/* ------------------------------------------------------------------------ */

#define HEUR_MT "astar.Heuristic"
#define REGISTRY_KEY "astar.heuristics"

enum { HK_CLUSTER, HK_LANDMARKS };

/*
** A heuristic object: tables computed once from the topology's own costs,
** evaluated by heur_eval (a C callback: no Lua call per node).  Its value is
** the largest of several lower bounds, each admissible for the topology's
** own costs, so the maximum is too:
**   - a geometric bound: Euclidean distance (graphs) or octile (grids),
**     times `scale`, the smallest cost per unit of length over the
**     topology's steps (<= 1), which keeps it admissible even where costs
**     undercut geometry;
**   - cluster: the table value between the clusters of node and goal
**     (smallest path cost between the two clusters, seed 003);
**   - landmarks (ALT): d(L, goal) - d(L, n) and d(n, L) - d(goal, L) for
**     each landmark L (triangle inequality, correct on directed graphs).
** The data live inside the userdata block; the user value is the topology,
** and the object refuses to serve a topology that changed since it was
** built (the tables would be stale and could overestimate).
*/
typedef struct lheur {
  int kind;
  int topo_kind;
  const void *topo;             /* the graph or grid it was built for */
  const astar_graph *graph;     /* positions for the Euclidean bound */
  uint32_t version;
  int32_t n, w, k;
  double scale;                 /* geometric bound multiplier */
  double data[];                /* HK_CLUSTER: table[k * k], then int32
                                ** labels[n]; HK_LANDMARKS: float from[k * n],
                                ** then float to[k * n] */
} lheur;

static double *heur_table(lheur *H) { return H->data; }
static int32_t *heur_labels(lheur *H) {
  return (int32_t *)(H->data + (size_t)H->k * (size_t)H->k);
}
static float *heur_from(lheur *H) { return (float *)H->data; }
static float *heur_to(lheur *H) {
  return (float *)H->data + (size_t)H->k * (size_t)H->n;
}

static int heur_eval(void *ctx, int32_t node, int32_t goal, double *h) {
  lheur *H = (lheur *)ctx;
  double b;
  int32_t i;
  if (H->topo_kind == KIND_GRAPH) {
    double a[3], c[3];
    astar_graph_position(H->graph, node, a);
    astar_graph_position(H->graph, goal, c);
    b = sqrt((a[0] - c[0]) * (a[0] - c[0]) + (a[1] - c[1]) * (a[1] - c[1]) +
             (a[2] - c[2]) * (a[2] - c[2]));
  } else {
    double dx = fabs((double)(node % H->w - goal % H->w));
    double dy = fabs((double)(node / H->w - goal / H->w));
    b = dx < dy ? (ASTAR_GRID_DIAG - 1) * dx + dy : (ASTAR_GRID_DIAG - 1) * dy + dx;
  }
  b *= H->scale;
  if (!(b <= DBL_MAX)) b = 0;
  if (H->kind == HK_CLUSTER) {
    int32_t cu = heur_labels(H)[node], cg = heur_labels(H)[goal];
    if (cu >= 0 && cg >= 0 && cu != cg) {
      double t = heur_table(H)[(size_t)cu * (size_t)H->k + (size_t)cg];
      if (t < HUGE_VAL && t > b) b = t;
    }
  } else {
    /* floats store the distances; each term gives back twice their
    ** rounding error (2^-23 relative) so it stays a lower bound */
    const float *from = heur_from(H), *to = heur_to(H);
    for (i = 0; i < H->k; i++) {
      size_t o = (size_t)i * (size_t)H->n;
      double lg = from[o + (size_t)goal], ln = from[o + (size_t)node];
      double tn = to[o + (size_t)node], tg = to[o + (size_t)goal];
      if (lg < HUGE_VAL && ln < HUGE_VAL) {
        double v = lg - ln - 2.4e-7 * (lg + ln);
        if (v > b) b = v;
      }
      if (tn < HUGE_VAL && tg < HUGE_VAL) {
        double v = tn - tg - 2.4e-7 * (tn + tg);
        if (v > b) b = v;
      }
    }
  }
  *h = b;
  return 0;
}

/* The node count, the topology pointer and its version. */
static int32_t topo_count(ltopo *T) {
  return T->kind == KIND_GRAPH ? astar_graph_node_count(T->graph)
                               : astar_grid_width(T->grid) * astar_grid_height(T->grid);
}

static const void *topo_ptr(ltopo *T) {
  return T->kind == KIND_GRAPH ? (const void *)T->graph : (const void *)T->grid;
}

static uint32_t topo_version(ltopo *T) {
  return T->kind == KIND_GRAPH ? astar_graph_version(T->graph) : astar_grid_version(T->grid);
}

static int node_open(ltopo *T, int32_t v) {
  if (T->kind == KIND_GRAPH) return astar_graph_enabled(T->graph, v) == 1;
  return astar_grid_blocked(T->grid, v % astar_grid_width(T->grid),
                            v / astar_grid_width(T->grid)) == 0;
}

/* The smallest cost per unit of length over the topology's steps, capped at
** 1: the factor that keeps the geometric bound admissible. */
static double geometric_scale(ltopo *T) {
  double scale = 1;
  if (T->kind == KIND_GRAPH) {
    int32_t e, m = astar_graph_edge_count(T->graph);
    for (e = 0; e < m; e++) {
      int32_t a, b;
      double c, pa[3], pb[3], len;
      astar_graph_edge(T->graph, e, &a, &b, &c, NULL);
      astar_graph_position(T->graph, a, pa);
      astar_graph_position(T->graph, b, pb);
      len = sqrt((pa[0] - pb[0]) * (pa[0] - pb[0]) + (pa[1] - pb[1]) * (pa[1] - pb[1]) +
                 (pa[2] - pb[2]) * (pa[2] - pb[2]));
      if (len > 0 && c / len < scale) scale = c / len;
    }
  } else {
    int32_t x, y, w = astar_grid_width(T->grid), h = astar_grid_height(T->grid);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        double c;
        astar_grid_cost(T->grid, x, y, &c);
        if (!astar_grid_blocked(T->grid, x, y) && c < scale) scale = c;
      }
  }
  return scale;
}

/* Runs a distance search (no modifiers) from the given sources on S; raises
** on failure.  Nothing here calls Lua, so no protected call is needed. */
static void plain_distances(lua_State *L, ltopo *T, lsearch *S, const int32_t *src,
                            size_t n, int reverse) {
  astar_query q;
  int rc;
  astar_query_init(&q, 0, 0);
  rc = T->kind == KIND_GRAPH
           ? astar_search_begin_distances(S->s, T->graph, src, n, reverse, &q)
           : astar_search_begin_distances_grid(S->s, T->grid, src, n, reverse, &q);
  if (rc == ASTAR_OK) rc = astar_search_step(S->s, 0);
  if (rc != ASTAR_FOUND) core_error(L, rc, "distances");
}

/* Farthest-point sampling: up to k nodes, each the reached node farthest
** (in path cost from those chosen so far) from the previous ones; the first
** is the node farthest from the first open node.  Writes them to out and
** returns how many were found (fewer when the topology has fewer reachable
** nodes). */
static int32_t farthest_points(lua_State *L, ltopo *T, lsearch *S, int32_t k,
                               int32_t *out) {
  int32_t n = topo_count(T), v, first = -1, got;
  for (v = 0; v < n && first < 0; v++)
    if (node_open(T, v)) first = v;
  if (first < 0 || k < 1) return 0;
  /* the first point: the far end of a probe from the first open node */
  out[0] = first;
  got = 1;
  for (;;) {
    int32_t best = -1;
    double far = 0;
    plain_distances(L, T, S, out, (size_t)got, 0);
    for (v = 0; v < n; v++) {
      double g = astar_search_g(S->s, v);
      if (g > far) {
        far = g;
        best = v;
      }
    }
    if (first >= 0) { /* the probe: move the first point to its far end */
      if (best >= 0) out[0] = best;
      first = -1;
      continue;
    }
    if (got >= k || best < 0) break; /* enough, or nothing farther */
    out[got++] = best;
  }
  return got;
}

/* The node a reached node's link comes from (its parent in the last
** forward distance search). */
static int32_t link_parent(ltopo *T, lsearch *S, int32_t v) {
  static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  static const int dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  int32_t link = astar_search_link(S->s, v), p;
  if (T->kind == KIND_GRAPH) {
    astar_graph_edge(T->graph, link, &p, NULL, NULL, NULL);
    return p;
  }
  return v - dx[link] - dy[link] * astar_grid_width(T->grid);
}

/* Pushes a new heuristic object for topology T (at index 1) with `bytes` of
** data. */
static lheur *new_heur(lua_State *L, ltopo *T, int kind, int32_t k, size_t bytes) {
  lheur *H = (lheur *)compat_newud(L, offsetof(lheur, data) + bytes);
  H->kind = kind;
  H->topo_kind = T->kind;
  H->topo = topo_ptr(T);
  H->graph = T->graph;
  H->version = topo_version(T);
  H->n = topo_count(T);
  H->w = T->kind == KIND_GRID ? astar_grid_width(T->grid) : 0;
  H->k = k;
  H->scale = geometric_scale(T);
  luaL_getmetatable(L, HEUR_MT);
  lua_setmetatable(L, -2);
  lua_createtable(L, 0, 1);   /* a table: 5.1's environments must be tables */
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "topo");
  compat_setuv(L, -2);
  return H;
}

static ltopo *check_any_topo(lua_State *L, int idx) {
  if (compat_testudata(L, idx, GRAPH_MT)) return check_graph(L, idx);
  if (compat_testudata(L, idx, GRID_MT)) return check_grid(L, idx);
  type_error(L, idx, "astar.Graph or astar.Grid");
  return NULL;
}

/* astar.cluster_heuristic(topology, clusters) -> heuristic.  clusters maps
** node (or cell) ids to cluster labels (any values; unlabelled nodes get
** only the geometric bound), or is a Field of labels on grids, or
** { count = k } to cluster automatically: k seeds by farthest-point sampling
** in path cost, every node joining the seed nearest to it. */
static int l_cluster_heuristic(lua_State *L) {
  ltopo *T = check_any_topo(L, 1);
  int32_t n = topo_count(T), k = 0, v, c;
  int32_t *labels;
  lsearch *S;
  lheur *H;
  int auto_k = 0;
  lua_settop(L, 2);
  S = new_search(L);                        /* 3: scratch search state */
  labels = (int32_t *)compat_newud(L, (size_t)(n > 0 ? n : 1) * sizeof(int32_t)); /* 4 */
  for (v = 0; v < n; v++) labels[v] = -1;
  if (lua_istable(L, 2)) {
    lua_getfield(L, 2, "count");
    auto_k = !lua_isnil(L, -1);
    if (auto_k) {
      uint64_t k64 = opt_count(L, 2, lua_gettop(L), "clusters.count");
      if (k64 > 4096)
        arg_error(L, 2, lua_pushfstring(L, "clusters.count must be at most 4096, got %s",
                                        describe(L, lua_gettop(L))));
      k = (int32_t)k64;
    }
    lua_pop(L, 1);
  } else if (!compat_testudata(L, 2, FIELD_MT)) {
    type_error(L, 2, "table (labels or { count = k }) or astar.Field");
  }
  if (auto_k) {
    int32_t *seeds;
    seeds = (int32_t *)compat_newud(L, (size_t)k * sizeof(int32_t)); /* 5 */
    k = farthest_points(L, T, S, k, seeds);
    if (k > 0) {
      plain_distances(L, T, S, seeds, (size_t)k, 0);
      /* a node's cluster is the seed its cheapest route comes from: walk
      ** each unlabelled node's links back to a labelled one, then label the
      ** whole chain (each node is walked once: linear overall) */
      for (c = 0; c < k; c++) labels[seeds[c]] = c;
      for (v = 0; v < n; v++) {
        int32_t u = v, label;
        if (labels[v] >= 0 || astar_search_g(S->s, v) < 0) continue;
        while (labels[u] < 0) u = link_parent(T, S, u);
        label = labels[u];
        for (u = v; labels[u] < 0; u = link_parent(T, S, u)) labels[u] = label;
      }
    }
  } else {
    /* hand-made labels: distinct values -> 0..k-1, in order of first use */
    lua_newtable(L);                        /* 5: label value -> index */
    for (v = 0; v < n; v++) {
      if (compat_testudata(L, 2, FIELD_MT)) {
        lfield *F = (lfield *)lua_touserdata(L, 2);
        if (T->kind != KIND_GRID || F->w != astar_grid_width(T->grid) ||
            F->h != astar_grid_height(T->grid))
        {
          if (T->kind != KIND_GRID) arg_error(L, 2, "a field of labels needs a grid");
          arg_error(L, 2, lua_pushfstring(L, "clusters field is %dx%d but the grid is %dx%d",
                                          (int)F->w, (int)F->h, (int)astar_grid_width(T->grid),
                                          (int)astar_grid_height(T->grid)));
        }
        if (F->v[v] <= 0) continue;
        lua_pushnumber(L, F->v[v]);
      } else {
        lua_rawgeti(L, 2, v + 1);
        if (lua_isnil(L, -1)) {
          lua_pop(L, 1);
          continue;
        }
      }
      lua_pushvalue(L, -1);
      lua_rawget(L, 5);                     /* label, index? */
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushinteger(L, k);
        lua_rawset(L, 5);
        labels[v] = k++;
        if (k > 4096) arg_error(L, 2, "at most 4096 distinct clusters");
      } else {
        labels[v] = (int32_t)lua_tonumber(L, -1);
        lua_pop(L, 2);
      }
    }
  }
  if (k == 0) arg_error(L, 2, "no node has a cluster");
  H = new_heur(L, T, HK_CLUSTER, k,
               (size_t)k * (size_t)k * sizeof(double) + (size_t)n * sizeof(int32_t));
  memcpy(heur_labels(H), labels, (size_t)n * sizeof(int32_t));
  /* table[a][b]: the cheapest path from a node of a to a node of b */
  {
    double *t = heur_table(H);
    int32_t *members = (int32_t *)labels; /* reused: labels are in H now */
    size_t i;
    for (i = 0; i < (size_t)k * (size_t)k; i++) t[i] = HUGE_VAL;
    for (c = 0; c < k; c++) {
      int32_t m = 0;
      for (v = 0; v < n; v++)
        if (heur_labels(H)[v] == c) members[m++] = v;
      plain_distances(L, T, S, members, (size_t)m, 1);
      for (v = 0; v < n; v++) {
        int32_t cu = heur_labels(H)[v];
        double g = astar_search_g(S->s, v);
        if (cu >= 0 && g >= 0 && g < t[(size_t)cu * (size_t)k + (size_t)c])
          t[(size_t)cu * (size_t)k + (size_t)c] = g;
      }
    }
  }
  return 1;
}

/* astar.landmarks(topology, k) -> heuristic (ALT): k landmarks chosen by
** farthest-point sampling, with the costs from and to each of them. */
static int l_landmarks(lua_State *L) {
  ltopo *T = check_any_topo(L, 1);
  uint64_t k64 = opt_count(L, 2, 2, "k");
  int32_t n = topo_count(T), k, i, v;
  int32_t *marks;
  lsearch *S;
  lheur *H;
  if (k64 > 64) arg_error(L, 2, lua_pushfstring(L, "k must be at most 64, got %s", describe(L, 2)));
  k = (int32_t)k64;
  lua_settop(L, 2);
  S = new_search(L);
  marks = (int32_t *)compat_newud(L, (size_t)k * sizeof(int32_t));
  k = farthest_points(L, T, S, k, marks);
  if (k == 0) return luaL_error(L, "landmarks: the topology has no open node");
  H = new_heur(L, T, HK_LANDMARKS, k, 2 * (size_t)k * (size_t)n * sizeof(float));
  for (i = 0; i < k; i++) {
    float *from = heur_from(H) + (size_t)i * (size_t)n, *to = heur_to(H) + (size_t)i * (size_t)n;
    plain_distances(L, T, S, &marks[i], 1, 0);
    for (v = 0; v < n; v++) {
      double g = astar_search_g(S->s, v);
      from[v] = g < 0 ? (float)HUGE_VAL : (float)g;
    }
    plain_distances(L, T, S, &marks[i], 1, 1);
    for (v = 0; v < n; v++) {
      double g = astar_search_g(S->s, v);
      to[v] = g < 0 ? (float)HUGE_VAL : (float)g;
    }
  }
  return 1;
}

/* Checks that heuristic object H (at hidx) serves topology T (the
** userdata at stack index 1) as it is now.  Identity is the userdata held in
** H's user value, not the C pointer: a new topology may be allocated where
** a closed one was. */
static void check_heur_for(lua_State *L, lheur *H, int hidx, ltopo *T, int arg) {
  int same;
  compat_getuv(L, hidx);
  lua_getfield(L, -1, "topo");
  same = lua_rawequal(L, -1, 1) && H->topo == topo_ptr(T);
  lua_pop(L, 2);
  if (!same) arg_error(L, arg, "heuristic was built for another graph or grid");
  if (H->version != topo_version(T))
    arg_error(L, arg, "heuristic was built before the last change to this graph or grid "
                      "(build it again)");
}

/* h:value(node, goal) or h:value(x, y, gx, gy) -> the estimate. */
static int l_heur_value(lua_State *L) {
  lheur *H = (lheur *)check_ud(L, 1, HEUR_MT);
  ltopo *T;
  int32_t a, b;
  double h;
  compat_getuv(L, 1);
  lua_getfield(L, -1, "topo");
  T = (ltopo *)lua_touserdata(L, -1);
  lua_pop(L, 2);
  if (T->graph == NULL && T->grid == NULL)
    return luaL_error(L, "attempt to use a closed %s", T->kind == KIND_GRAPH ? "graph" : "grid");
  if (H->topo != topo_ptr(T) || H->version != topo_version(T))
    return arg_error(L, 1, "heuristic was built before the last change to this graph or grid "
                           "(build it again)");
  if (T->kind == KIND_GRAPH) {
    a = check_node(L, T, 2);
    b = check_node(L, T, 3);
  } else {
    a = check_xy(L, T, 2, NULL, NULL);
    b = check_xy(L, T, 4, NULL, NULL);
  }
  heur_eval(H, a, b, &h);
  lua_pushnumber(L, h);
  return 1;
}

static int l_heur_tostring(lua_State *L) {
  lheur *H = (lheur *)check_ud(L, 1, HEUR_MT);
  lua_pushfstring(L, "astar.Heuristic (%s, %d %s)",
                  H->kind == HK_CLUSTER ? "cluster table" : "landmarks", (int)H->k,
                  H->kind == HK_CLUSTER ? "clusters" : "landmarks");
  return 1;
}

/* astar.register_heuristic(name, h [, { override = true }]): h is a
** function, a callable, a heuristic object, or nil to unregister. */
static int l_register_heuristic(lua_State *L) {
  const char *name;
  int i, builtin = 0, override = 0;
  if (lua_type(L, 1) != LUA_TSTRING || compat_rawlen(L, 1) == 0)
    return arg_error(L, 1, lua_pushfstring(L, "name must be a non-empty string, got %s",
                                           describe(L, 1)));
  name = lua_tostring(L, 1);
  if (!lua_isnil(L, 2) && !is_callable(L, 2) && !compat_testudata(L, 2, HEUR_MT))
    return arg_error(L, 2, lua_pushfstring(L,
        "heuristic must be a function, a heuristic object or nil, got %s", describe(L, 2)));
  if (!lua_isnoneornil(L, 3)) {
    static const char *const keys[] = {"override", NULL};
    if (!lua_istable(L, 3)) type_error(L, 3, "table");
    check_keys(L, 3, keys);
    lua_getfield(L, 3, "override");
    if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN)
      return arg_error(L, 3, lua_pushfstring(L, "override must be a boolean, got %s",
                                             describe(L, -1)));
    override = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  for (i = 0; heuristic_names[i]; i++) builtin |= strcmp(name, heuristic_names[i]) == 0;
  if (builtin && !override)
    return arg_error(L, 1, lua_pushfstring(L,
        "\"%s\" is a built-in heuristic (pass { override = true } to replace it)", name));
  lua_getfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_rawset(L, -3);
  return 0;
}

/* astar.heuristics() -> the sorted names a query may ask for: the built-in
** ones and the registered ones. */
static int l_heuristics(lua_State *L) {
  int i, j, n = 0;
  lua_settop(L, 0);                         /* absolute indices below */
  lua_newtable(L);                          /* 1: result */
  lua_newtable(L);                          /* 2: set of names */
  for (i = 0; heuristic_names[i]; i++) {
    lua_pushboolean(L, 1);
    lua_setfield(L, 2, heuristic_names[i]);
  }
  lua_getfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY);
  lua_pushnil(L);
  while (lua_next(L, -2)) {                 /* ..., reg, k, v */
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushboolean(L, 1);
    lua_rawset(L, 2);
  }
  lua_pop(L, 1);
  /* insertion sort into the result (a handful of names) */
  lua_pushnil(L);
  while (lua_next(L, 2)) {
    const char *name;
    lua_pop(L, 1);
    name = lua_tostring(L, -1);
    for (j = n; j > 0; j--) {
      int less;
      lua_rawgeti(L, 1, j);
      less = strcmp(name, lua_tostring(L, -1)) < 0;
      if (!less) {
        lua_pop(L, 1);
        break;
      }
      lua_rawseti(L, 1, j + 1);
    }
    lua_pushvalue(L, -1);
    lua_rawseti(L, 1, j + 1);
    n++;
  }
  lua_pop(L, 1);
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Query options                                                              */
/* ------------------------------------------------------------------------ */




typedef struct lopts {
  astar_query q;
  int hslot, cslot;     /* stack slots holding the callables (or nil) */
  int pslot, fslot;     /* ... and the penalty / forbid fields (or nil) */
  int oslot;            /* ... and a heuristic object (or nil) */
  int want_trace, want_visited, partial;
  int reverse;          /* distances: 1 = cost to the sources (default) */
} lopts;

/* What a set of options is for: a path search (find_path, query) or a
** distance search (distances), which accepts only the modifiers. */
enum { OPTS_PATH, OPTS_DIST };

/* Reads the costs = { tag = factor | false } table (at vidx) into S->tagf,
** indexed by the topology's tag ids; tags the topology never used are
** ignored (a level script may share one costs table across maps). */
static void parse_costs(lua_State *L, int arg, int vidx, lsearch *S, lopts *o) {
  int32_t ntags, i;
  if (!lua_istable(L, vidx))
    arg_error(L, arg, lua_pushfstring(L, "costs must be a table, got %s",
                                          describe(L, vidx)));
  compat_getuv(L, 1);
  lua_getfield(L, -1, "names");
  ntags = (int32_t)compat_rawlen(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, -1, "tags");             /* uv, tags */
  S->tagf = (double *)grow_scratch(L, S, S->tagf, &S->tagf_cap,
                                   (size_t)ntags + 1, sizeof(double));
  for (i = 0; i <= ntags; i++) S->tagf[i] = 1.0;
  lua_pushnil(L);
  while (lua_next(L, vidx)) {              /* uv, tags, key, value */
    int kidx = lua_gettop(L) - 1, vi = kidx + 1;
    double v;
    if (lua_type(L, kidx) != LUA_TSTRING)
      arg_error(L, arg, lua_pushfstring(L, "costs keys must be tag names, got %s",
                                            describe(L, kidx)));
    if (lua_type(L, vi) == LUA_TBOOLEAN && !lua_toboolean(L, vi)) {
      v = HUGE_VAL;
    } else {
      v = lua_type(L, vi) == LUA_TNUMBER ? lua_tonumber(L, vi) : -1;
      if (lua_type(L, vi) != LUA_TNUMBER || !(v >= 0) || !isfinite(v))
        arg_error(L, arg, lua_pushfstring(L,
            "costs.%s must be a finite number >= 0 or false, got %s",
            lua_tostring(L, kidx), describe(L, vi)));
    }
    lua_pushvalue(L, -2);
    lua_rawget(L, -4);                     /* uv, tags, key, value, id */
    if (lua_type(L, -1) == LUA_TNUMBER) S->tagf[(int32_t)lua_tonumber(L, -1)] = v;
    lua_pop(L, 2);
  }
  lua_pop(L, 2);
  o->q.tag_factor = S->tagf;
  o->q.tag_count = ntags + 1;
}

/* The heuristic option at v: a registered name (looked up first, so a mod
** can replace a built-in), a heuristic object, a callable or a built-in
** name. */
static void parse_heuristic(lua_State *L, ltopo *T, int arg, int v, lopts *o) {
  lheur *H;
  if (lua_type(L, v) == LUA_TSTRING) {
    lua_getfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY);
    lua_pushvalue(L, v);
    lua_rawget(L, -2);
    if (!lua_isnil(L, -1)) lua_replace(L, v); /* the registered value */
    else lua_pop(L, 1);
    lua_pop(L, 1);
  }
  if ((H = (lheur *)compat_testudata(L, v, HEUR_MT)) != NULL) {
    check_heur_for(L, H, v, T, arg);
    o->q.heuristic = ASTAR_H_CALLBACK;
    o->q.heuristic_fn = heur_eval;
    o->q.heuristic_ctx = H;
    lua_pushvalue(L, v);
    lua_replace(L, o->oslot);
  } else if (is_callable(L, v)) {
    o->q.heuristic = ASTAR_H_CALLBACK;
    lua_pushvalue(L, v);
    lua_replace(L, o->hslot);
  } else {
    o->q.heuristic = check_choice_or(L, arg, v, "heuristic", heuristic_names,
                                     "a function, a registered name or ");
  }
}

/*
** Parses the options table at arg (absent or nil: defaults) for a search on
** topology T (at stack index 1).  Pushes four slots (heuristic callable,
** cost callable, penalty field, forbid field; nil when absent) and records
** their indices: the values must stay reachable while the search can run.
** Every key must be a known option for this kind of search: a typo is an
** error, never silently ignored.
*/
static void parse_opts(lua_State *L, ltopo *T, int arg, lsearch *S, lopts *o,
                       int32_t start, int32_t goal, int kind) {
  astar_query *q = &o->q;
  int i;
  astar_query_init(q, start, goal);
  if (T->kind == KIND_GRID)
    q->heuristic = astar_grid_diagonal(T->grid) == ASTAR_DIAG_NEVER
                       ? ASTAR_H_MANHATTAN : ASTAR_H_OCTILE;
  o->want_trace = o->want_visited = o->partial = 0;
  o->reverse = 1;
  for (i = 0; i < 5; i++) lua_pushnil(L);
  o->hslot = lua_gettop(L) - 4;
  o->cslot = o->hslot + 1;
  o->pslot = o->hslot + 2;
  o->fslot = o->hslot + 3;
  o->oslot = o->hslot + 4;
  if (lua_isnoneornil(L, arg)) return;
  if (!lua_istable(L, arg)) type_error(L, arg, "table");
  lua_pushnil(L);
  while (lua_next(L, arg)) {                /* key at -2, value at -1 */
    int v = lua_gettop(L);
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    int path_only = k && (strcmp(k, "heuristic") == 0 || strcmp(k, "weight") == 0 ||
                          strcmp(k, "stop") == 0 || strcmp(k, "tie_break") == 0 ||
                          strcmp(k, "trace") == 0 || strcmp(k, "visited") == 0 ||
                          strcmp(k, "max_expansions") == 0 || strcmp(k, "partial") == 0);
    if (k == NULL) {
      arg_error(L, arg, lua_pushfstring(L, "unknown option %s", describe(L, -2)));
    } else if (kind == OPTS_DIST && path_only) {
      arg_error(L, arg, lua_pushfstring(L, "option \"%s\" does not apply to distances", k));
    } else if (strcmp(k, "heuristic") == 0) {
      parse_heuristic(L, T, arg, v, o);
    } else if (strcmp(k, "weight") == 0) {
      double w = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : -1;
      if (lua_type(L, v) != LUA_TNUMBER || !(w >= 0) || !isfinite(w))
        arg_error(L, arg, lua_pushfstring(L,
            "weight must be a finite number >= 0, got %s", describe(L, v)));
      q->weight = w;
    } else if (strcmp(k, "stop") == 0) {
      q->stop = check_choice(L, arg, v, "stop", stop_names);
    } else if (strcmp(k, "tie_break") == 0) {
      q->tie_break = check_choice(L, arg, v, "tie_break", tie_names);
    } else if (strcmp(k, "costs") == 0) {
      parse_costs(L, arg, v, S, o);
    } else if (strcmp(k, "cost") == 0) {
      if (!is_callable(L, v))
        arg_error(L, arg, lua_pushfstring(L, "cost must be a function, got %s",
                                          describe(L, v)));
      lua_pushvalue(L, v);
      lua_replace(L, o->cslot);
    } else if (strcmp(k, "penalty") == 0 || strcmp(k, "forbid") == 0 ||
               strcmp(k, "penalty_scale") == 0) {
      if (T->kind != KIND_GRID)
        arg_error(L, arg, lua_pushfstring(L, "option \"%s\" is only for grids", k));
      if (k[0] == 'f') {
        q->forbid = opt_field(L, T, arg, v, "forbid");
        lua_pushvalue(L, v);
        lua_replace(L, o->fslot);
      } else if (k[7] == '_') {
        double sc = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : 0;
        if (lua_type(L, v) != LUA_TNUMBER || !isfinite(sc))
          arg_error(L, arg, lua_pushfstring(L,
              "penalty_scale must be a finite number, got %s", describe(L, v)));
        q->penalty_scale = sc;
      } else {
        q->penalty = opt_field(L, T, arg, v, "penalty");
        lua_pushvalue(L, v);
        lua_replace(L, o->pslot);
      }
    } else if (strcmp(k, "trace") == 0 || strcmp(k, "visited") == 0 ||
               strcmp(k, "partial") == 0) {
      if (lua_type(L, v) != LUA_TBOOLEAN)
        arg_error(L, arg, lua_pushfstring(L, "%s must be a boolean, got %s", k,
                                          describe(L, v)));
      if (k[0] == 't') o->want_trace = lua_toboolean(L, v);
      else if (k[0] == 'v') o->want_visited = lua_toboolean(L, v);
      else o->partial = lua_toboolean(L, v);
    } else if (strcmp(k, "max_expansions") == 0) {
      q->max_expansions = opt_count(L, arg, v, "max_expansions");
    } else if (strcmp(k, "max_cost") == 0) {
      double c = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : -1;
      if (lua_type(L, v) != LUA_TNUMBER || !(c >= 0))
        arg_error(L, arg, lua_pushfstring(L, "max_cost must be a number >= 0, got %s",
                                          describe(L, v)));
      q->max_cost = c;
    } else if (kind == OPTS_DIST && strcmp(k, "direction") == 0) {
      static const char *const dirs[] = {"from_sources", "to_sources", NULL};
      o->reverse = check_choice(L, arg, v, "direction", dirs);
    } else {
      arg_error(L, arg, lua_pushfstring(L, "unknown option %s", describe(L, -2)));
    }
    lua_settop(L, v - 1);
  }
  q->record_trace = o->want_trace;
  q->record_visited = o->want_visited;
  q->track_best = o->partial;
}

/* ------------------------------------------------------------------------ */
/* Callback bridges                                                           */
/* ------------------------------------------------------------------------ */

/* The context of the Lua callbacks.  The core keeps a pointer to it in the
** search between steps, so it lives where the search does: on the C stack of
** find_path, or inside a Query userdata.  L and the stack indices are set
** again by every protected run (a query may be stepped from any coroutine). */
typedef struct bridge {
  lua_State *L;
  int hidx, cidx;
  int32_t w;            /* grid width (callbacks get coordinates), 0: graph */
} bridge;

static void push_cell(lua_State *L, int32_t w, int32_t c) {
  lua_pushinteger(L, c % w + 1);
  lua_pushinteger(L, c / w + 1);
}

static int bridge_heuristic(void *ctx, int32_t node, int32_t goal, double *h) {
  bridge *b = (bridge *)ctx;
  lua_State *L = b->L;
  double v;
  lua_pushvalue(L, b->hidx);
  if (b->w) {
    push_cell(L, b->w, node);
    push_cell(L, b->w, goal);
    lua_call(L, 4, 1);
  } else {
    lua_pushinteger(L, (lua_Integer)node + 1);
    lua_pushinteger(L, (lua_Integer)goal + 1);
    lua_call(L, 2, 1);
  }
  v = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
  if (lua_type(L, -1) != LUA_TNUMBER || !(v >= 0) || !isfinite(v)) {
    if (b->w)
      return luaL_error(L, "heuristic returned %s for cell (%d, %d) (expected a finite number >= 0)",
                        describe(L, -1), (int)(node % b->w + 1), (int)(node / b->w + 1));
    return luaL_error(L, "heuristic returned %s for node %d (expected a finite number >= 0)",
                      describe(L, -1), (int)node + 1);
  }
  lua_pop(L, 1);
  *h = v;
  return 0;
}

static int bridge_cost(void *ctx, int32_t from, int32_t to, int32_t edge,
                       double cost, double *out) {
  bridge *b = (bridge *)ctx;
  lua_State *L = b->L;
  lua_pushvalue(L, b->cidx);
  if (b->w) {
    push_cell(L, b->w, from);
    push_cell(L, b->w, to);
    lua_pushnumber(L, cost);
    lua_call(L, 5, 1);
  } else {
    lua_pushinteger(L, (lua_Integer)from + 1);
    lua_pushinteger(L, (lua_Integer)to + 1);
    lua_pushnumber(L, cost);
    lua_pushinteger(L, (lua_Integer)edge + 1);
    lua_call(L, 4, 1);
  }
  if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
    *out = ASTAR_FORBID;
  } else {
    double v = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
    if (lua_type(L, -1) != LUA_TNUMBER || !(v >= 0) || !isfinite(v)) {
      if (b->w)
        return luaL_error(L,
            "cost callback returned %s for the step from (%d, %d) to (%d, %d) "
            "(expected a finite number >= 0 or false)", describe(L, -1),
            (int)(from % b->w + 1), (int)(from / b->w + 1), (int)(to % b->w + 1),
            (int)(to / b->w + 1));
      return luaL_error(L,
          "cost callback returned %s for edge %d from node %d to node %d "
          "(expected a finite number >= 0 or false)", describe(L, -1),
          (int)edge + 1, (int)from + 1, (int)to + 1);
    }
    *out = v;
  }
  lua_pop(L, 1);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Running a search                                                           */
/* ------------------------------------------------------------------------ */

/* What a protected run does. */
enum {
  RUN_PATH,     /* find_path: begin, run to the end, push the results */
  RUN_FIRST,    /* a query's first step: begin, then as RUN_STEP */
  RUN_STEP,     /* query step: run at most `steps` expansions */
  RUN_DIST,     /* distances: begin a distance search, run it to the end */
  RUN_AUDIT     /* audit: begin, then compare h with the distances in `dist` */
};

typedef struct run {
  ltopo *T;
  lsearch *S;
  lopts *o;
  bridge *b;
  int op;
  uint64_t steps;
  const int32_t *sources;       /* RUN_DIST */
  size_t nsources;
  lsearch *dist;                /* RUN_AUDIT: finished reverse distances */
  astar_audit audit;            /* RUN_AUDIT: out */
  int status;                   /* out: the core's status */
} run;

static void set_int(lua_State *L, const char *k, double v) {
  lua_pushinteger(L, (lua_Integer)v);
  lua_setfield(L, -2, k);
}

static void set_num(lua_State *L, const char *k, double v) {
  lua_pushnumber(L, v);
  lua_setfield(L, -2, k);
}

/* Adds expanded / reopened / generated (and trace, visited when asked) to
** the table on top. */
static void push_stats(lua_State *L, ltopo *T, lsearch *S, lopts *o) {
  const astar_stats *st = astar_search_stats(S->s);
  int32_t w = T->kind == KIND_GRID ? astar_grid_width(T->grid) : 0;
  size_t n, i;
  set_int(L, "expanded", (double)st->expanded);
  set_int(L, "reopened", (double)st->reopened);
  set_int(L, "generated", (double)st->generated);
  if (o->want_visited) {
    const int32_t *v = astar_search_visited(S->s, &n);
    lua_createtable(L, (int)n, 0);
    for (i = 0; i < n; i++) {
      lua_pushinteger(L, (lua_Integer)v[i] + 1);
      lua_rawseti(L, -2, (int)i + 1);
    }
    lua_setfield(L, -2, "visited");
  }
  if (o->want_trace) {
    const astar_trace_entry *t = astar_search_trace(S->s, &n);
    lua_createtable(L, (int)n, 0);
    for (i = 0; i < n; i++) {
      lua_createtable(L, 0, w ? 6 : 4);
      set_int(L, "node", t[i].node + 1.0);
      if (t[i].parent >= 0) set_int(L, "parent", t[i].parent + 1.0);
      set_num(L, "g", t[i].g);
      set_num(L, "f", t[i].f);
      if (w) {
        set_int(L, "x", t[i].node % w + 1);
        set_int(L, "y", t[i].node / w + 1);
      }
      lua_rawseti(L, -2, (int)i + 1);
    }
    lua_setfield(L, -2, "trace");
  }
}

#define GRID_PATH_MT "astar.GridPath"

/* __index of grid paths: path.xy, the list of {x, y} cells, made from
** path.nodes and path.width on first access and then stored in the path. */
static int grid_path_index(lua_State *L) {
  lua_Integer w, i, n;
  if (lua_type(L, 2) != LUA_TSTRING || strcmp(lua_tostring(L, 2), "xy") != 0) return 0;
  lua_getfield(L, 1, "width");
  lua_getfield(L, 1, "nodes");
  w = (lua_Integer)lua_tonumber(L, -2);
  if (w <= 0 || !lua_istable(L, -1)) return 0;
  n = (lua_Integer)compat_rawlen(L, -1);
  lua_createtable(L, (int)n, 0);
  for (i = 1; i <= n; i++) {
    lua_Integer c;
    lua_rawgeti(L, -2, (int)i);
    c = (lua_Integer)lua_tonumber(L, -1) - 1;
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, c % w + 1);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, c / w + 1);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (int)i);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, 1, "xy");                 /* rawset: xy is not in the table yet */
  return 1;
}

/* Pushes the path table for the path start..to. */
static void push_path(lua_State *L, ltopo *T, lsearch *S, lopts *o, int32_t to) {
  int32_t len = astar_search_path_length(S->s, to), i;
  int32_t w = T->kind == KIND_GRID ? astar_grid_width(T->grid) : 0;
  double cost;
  S->nodes = (int32_t *)grow_scratch(L, S, S->nodes, &S->nodes_cap, (size_t)len,
                                     sizeof(int32_t));
  S->edges = (int32_t *)grow_scratch(L, S, S->edges, &S->edges_cap, (size_t)len,
                                     sizeof(int32_t));
  astar_search_path(S->s, to, S->nodes, S->edges, &cost);
  lua_createtable(L, 0, 9);
  lua_pushnumber(L, cost);
  lua_setfield(L, -2, "cost");
  lua_createtable(L, len, 0);
  for (i = 0; i < len; i++) {
    lua_pushinteger(L, (lua_Integer)S->nodes[i] + 1);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "nodes");
  if (w) {
    /* xy is built on first access (grid_path_index): a table per cell is
    ** more than many searches cost, and many callers never read it */
    lua_pushinteger(L, w);
    lua_setfield(L, -2, "width");
    luaL_getmetatable(L, GRID_PATH_MT);
    lua_setmetatable(L, -2);
  } else {
    lua_createtable(L, len > 0 ? len - 1 : 0, 0);
    for (i = 0; i + 1 < len; i++) {
      lua_pushinteger(L, (lua_Integer)S->edges[i] + 1);
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "edges");
  }
  push_stats(L, T, S, o);
}

/* Pushes what find_path returns for a final status: path, or nil, reason,
** stats, or (partial = true) the path to the reached node with the smallest
** heuristic value, marked partial with the reason.  Returns the count. */
static int push_outcome(lua_State *L, ltopo *T, lsearch *S, lopts *o, int status) {
  if (status == ASTAR_FOUND) {
    push_path(L, T, S, o, astar_search_goal(S->s));
    return 1;
  }
  if (o->partial && astar_search_best(S->s) >= 0) {
    push_path(L, T, S, o, astar_search_best(S->s));
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "partial");
    lua_pushstring(L, astar_status_name(status));
    lua_setfield(L, -2, "reason");
    return 1;
  }
  lua_pushnil(L);
  lua_pushstring(L, astar_status_name(status));
  lua_createtable(L, 0, 5);
  push_stats(L, T, S, o);
  return 3;
}

/* The message for a core error status (callback errors never get here: the
** bridges raise their own). */
static int search_error(lua_State *L, ltopo *T, lsearch *S, int rc, const char *fname) {
  double v;
  int32_t at = astar_search_error_node(S->s, &v);
  if (rc == ASTAR_ECOST && T->kind == KIND_GRID) {
    int32_t w = astar_grid_width(T->grid);
    return luaL_error(L, "entering cell (%d, %d) would cost %s (penalty * penalty_scale "
                      "must keep step costs finite and >= 0)",
                      (int)(at % w + 1), (int)(at / w + 1), describe_number(L, v));
  }
  if (rc == ASTAR_ECOST)
    return luaL_error(L, "edge %d would cost %s (tag factors must keep edge costs finite)",
                      (int)at + 1, describe_number(L, v));
  if (rc == ASTAR_ECHANGED)
    return luaL_error(L, "the %s changed since this query began (start a new query)",
                      T->kind == KIND_GRAPH ? "graph" : "grid");
  if (rc == ASTAR_EOVERFLOW && T->kind == KIND_GRID) {
    int32_t w = astar_grid_width(T->grid);
    return luaL_error(L, "the cost of reaching cell (%d, %d) overflows (costs too large)",
                      (int)(at % w + 1), (int)(at / w + 1));
  }
  if (rc == ASTAR_EOVERFLOW)
    return luaL_error(L, "the cost of reaching node %d overflows (costs too large)", (int)at + 1);
  return core_error(L, rc, fname);
}

/* The protected part of every search: stack = [run*, heuristic|nil,
** cost|nil].  Callbacks run only in here, under one pcall. */
static int run_protected(lua_State *L) {
  run *r = (run *)lua_touserdata(L, 1);
  lopts *o = r->o;
  int rc = ASTAR_OK;
  r->b->L = L;
  r->b->hidx = 2;
  r->b->cidx = 3;
  if (o->q.heuristic == ASTAR_H_CALLBACK && !lua_isnil(L, 2)) {
    o->q.heuristic_fn = bridge_heuristic;
    o->q.heuristic_ctx = r->b;
  }
  if (!lua_isnil(L, 3)) {
    o->q.cost_fn = bridge_cost;
    o->q.cost_ctx = r->b;
  }
  if (r->op == RUN_PATH || r->op == RUN_FIRST || r->op == RUN_AUDIT)
    rc = r->T->kind == KIND_GRAPH ? astar_search_begin(r->S->s, r->T->graph, &o->q)
                                  : astar_search_begin_grid(r->S->s, r->T->grid, &o->q);
  else if (r->op == RUN_DIST)
    rc = r->T->kind == KIND_GRAPH
             ? astar_search_begin_distances(r->S->s, r->T->graph, r->sources,
                                            r->nsources, o->reverse, &o->q)
             : astar_search_begin_distances_grid(r->S->s, r->T->grid, r->sources,
                                                 r->nsources, o->reverse, &o->q);
  if (rc != ASTAR_OK) return search_error(L, r->T, r->S, rc, "find_path");
  if (r->op == RUN_AUDIT) {
    rc = astar_search_audit(r->S->s, r->dist->s, &r->audit);
    if (rc != ASTAR_OK) return search_error(L, r->T, r->S, rc, "audit_heuristic");
    return 0;
  }
  r->status = astar_search_step(r->S->s,
                                r->op == RUN_STEP || r->op == RUN_FIRST ? r->steps : 0);
  if (r->status < 0) return search_error(L, r->T, r->S, r->status, "find_path");
  if (r->op == RUN_PATH) return push_outcome(L, r->T, r->S, o, r->status);
  return 0;
}

/* Runs r under one pcall with the topology locked; the callables are at
** stack indices hidx and cidx (nil when absent).  Unlocks and rethrows the
** original error on failure; otherwise returns the number of results. */
static int run_search(lua_State *L, run *r, int hidx, int cidx) {
  int status, base = lua_gettop(L);
  lua_pushcfunction(L, run_protected);
  lua_pushlightuserdata(L, r);
  lua_pushvalue(L, hidx);
  lua_pushvalue(L, cidx);
  r->S->in_use = 1;
  topo_lock(r->T, 1);
  status = lua_pcall(L, 3, LUA_MULTRET, 0);
  topo_lock(r->T, -1);
  r->S->in_use = 0;
  if (status != LUA_OK) return lua_error(L);
  return lua_gettop(L) - base;
}

/* Gets the topology's cached Search (creating it on first use), or a fresh
** one when the cached one is busy (a nested query from a callback).  Pushes
** it: the stack keeps it alive for the duration of the query. */
static lsearch *acquire_search(lua_State *L) {
  lsearch *S;
  compat_getuv(L, 1);
  lua_getfield(L, -1, "search");
  S = (lsearch *)compat_testudata(L, -1, SEARCH_MT);
  if (S != NULL && !S->in_use && S->s != NULL) {
    lua_remove(L, -2);
    return S;
  }
  {
    /* replace a cached search only if it was freed (its __gc called
    ** through the debug library): a busy one stays for its owner */
    int cache = lua_isnil(L, -1) || (S != NULL && S->s == NULL);
    lua_pop(L, 1);
    S = new_search(L);                     /* uv, S */
    if (cache) {
      lua_pushvalue(L, -1);
      lua_setfield(L, -3, "search");
    }
  }
  lua_remove(L, -2);                       /* S */
  return S;
}

static int find_path_common(lua_State *L, ltopo *T, int optarg, int32_t start,
                            int32_t goal) {
  lsearch *S;
  lopts o;
  bridge b;
  run r;
  lua_settop(L, optarg);
  S = acquire_search(L);
  parse_opts(L, T, optarg, S, &o, start, goal, OPTS_PATH);
  b.w = T->kind == KIND_GRID ? astar_grid_width(T->grid) : 0;
  memset(&r, 0, sizeof r);
  r.T = T;
  r.S = S;
  r.o = &o;
  r.b = &b;
  r.op = RUN_PATH;
  return run_search(L, &r, o.hslot, o.cslot);
}

static int l_graph_find_path(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  int32_t start = check_node(L, T, 2), goal = check_node(L, T, 3);
  return find_path_common(L, T, 4, start, goal);
}

static int l_grid_find_path(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t start = check_xy(L, T, 2, NULL, NULL), goal = check_xy(L, T, 4, NULL, NULL);
  return find_path_common(L, T, 6, start, goal);
}

/* ------------------------------------------------------------------------ */
/* Time-sliced queries                                                        */
/* ------------------------------------------------------------------------ */

#define QUERY_MT "astar.Query"

/* A query owns its search state and its parsed options; its user value
** holds { topo =, h =, c =, penalty =, forbid = } so everything the search
** reads stays alive as long as the query. */
typedef struct lquery {
  lsearch S;
  lopts o;
  bridge b;
  int state;                    /* QS_* */
  int status;                   /* last core status */
  int begun;                    /* the search began (on the first step) */
  uint32_t version;             /* the topology's version at creation */
} lquery;

enum { QS_RUNNING, QS_DONE, QS_CANCELLED, QS_FAILED };

static void query_release(lquery *Q) {
  astar_search_free(Q->S.s);
  Q->S.s = NULL;
  if (Q->S.tagf) Q->S.alloc(Q->S.ud, Q->S.tagf, Q->S.tagf_cap * sizeof(double), 0);
  if (Q->S.nodes) Q->S.alloc(Q->S.ud, Q->S.nodes, Q->S.nodes_cap * sizeof(int32_t), 0);
  if (Q->S.edges) Q->S.alloc(Q->S.ud, Q->S.edges, Q->S.edges_cap * sizeof(int32_t), 0);
  Q->S.tagf = NULL;
  Q->S.nodes = Q->S.edges = NULL;
  Q->S.tagf_cap = Q->S.nodes_cap = Q->S.edges_cap = 0;
}

static int l_query_gc(lua_State *L) {
  lquery *Q = (lquery *)check_ud(L, 1, QUERY_MT);
  if (Q->S.in_use) return luaL_error(L, "cannot cancel a query while it is stepping");
  query_release(Q);
  if (Q->state == QS_RUNNING) Q->state = QS_CANCELLED;
  return 0;
}

/* Pushes the query's topology and returns it (raises if it was closed). */
static ltopo *query_topo(lua_State *L, int qidx) {
  ltopo *T;
  compat_getuv(L, qidx);
  lua_getfield(L, -1, "topo");
  T = (ltopo *)lua_touserdata(L, -1);
  if (T->graph == NULL && T->grid == NULL)
    luaL_error(L, "attempt to use a closed %s", T->kind == KIND_GRAPH ? "graph" : "grid");
  lua_remove(L, -2);
  return T;
}

static const char *query_state_name(lquery *Q) {
  if (Q->S.in_use) return "searching"; /* asked from its own callback */
  if (Q->state == QS_CANCELLED) return "cancelled";
  if (Q->state == QS_FAILED) return "failed";
  return astar_status_name(Q->status);
}

/* graph:query(start, goal [, opts]) / grid:query(x1, y1, x2, y2 [, opts]) */
static int query_new(lua_State *L, ltopo *T, int optarg, int32_t start, int32_t goal) {
  lquery *Q;
  int qidx;
  lua_settop(L, optarg);
  Q = (lquery *)compat_newud(L, sizeof(lquery));
  memset(Q, 0, sizeof *Q);
  Q->state = QS_FAILED;                     /* until begin succeeds */
  luaL_getmetatable(L, QUERY_MT);
  lua_setmetatable(L, -2);
  qidx = lua_gettop(L);
  Q->S.ud = alloc_ud(L, &Q->S.alloc);
  Q->S.s = astar_search_new(Q->S.alloc, Q->S.ud);
  if (Q->S.s == NULL) return luaL_error(L, "not enough memory");
  parse_opts(L, T, optarg, &Q->S, &Q->o, start, goal, OPTS_PATH);
  lua_createtable(L, 0, 5);                 /* the user value */
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "topo");
  lua_pushvalue(L, Q->o.hslot);
  lua_setfield(L, -2, "h");
  lua_pushvalue(L, Q->o.cslot);
  lua_setfield(L, -2, "c");
  lua_pushvalue(L, Q->o.pslot);
  lua_setfield(L, -2, "penalty");
  lua_pushvalue(L, Q->o.fslot);
  lua_setfield(L, -2, "forbid");
  lua_pushvalue(L, Q->o.oslot);
  lua_setfield(L, -2, "hobj");
  compat_setuv(L, qidx);
  Q->b.w = T->kind == KIND_GRID ? astar_grid_width(T->grid) : 0;
  /* no callback runs here: the search begins on the first step (which also
  ** notices a topology changed since now) */
  Q->version = topo_version(T);
  Q->status = ASTAR_SEARCHING;
  Q->state = QS_RUNNING;
  lua_settop(L, qidx);
  return 1;
}

static int l_graph_query(lua_State *L) {
  ltopo *T = check_graph(L, 1);
  int32_t start = check_node(L, T, 2), goal = check_node(L, T, 3);
  return query_new(L, T, 4, start, goal);
}

static int l_grid_query(lua_State *L) {
  ltopo *T = check_grid(L, 1);
  int32_t start = check_xy(L, T, 2, NULL, NULL), goal = check_xy(L, T, 4, NULL, NULL);
  return query_new(L, T, 6, start, goal);
}

/* q:step([n]) -> "searching" | "found" | "unreachable" | "max_expansions" |
** "max_cost" | "cancelled": expands at most n nodes (default: to the end). */
static int l_query_step(lua_State *L) {
  lquery *Q = (lquery *)check_ud(L, 1, QUERY_MT);
  uint64_t n = lua_isnoneornil(L, 2) ? 0 : opt_count(L, 2, 2, "n");
  ltopo *T;
  run r;
  if (Q->S.in_use) return luaL_error(L, "cannot step a query while it is stepping");
  if (Q->state == QS_FAILED)
    return luaL_error(L, "this query failed (an error was raised while it ran): start a new one");
  if (Q->state != QS_RUNNING) {
    lua_pushstring(L, query_state_name(Q));
    return 1;
  }
  T = query_topo(L, 1);                     /* q, n?, topo */
  if (!Q->begun && topo_version(T) != Q->version)
    return search_error(L, T, &Q->S, ASTAR_ECHANGED, "step");
  compat_getuv(L, 1);
  lua_getfield(L, -1, "h");
  lua_getfield(L, -2, "c");                 /* ..., uv, h, c */
  memset(&r, 0, sizeof r);
  r.T = T;
  r.S = &Q->S;
  r.o = &Q->o;
  r.b = &Q->b;
  r.op = Q->begun ? RUN_STEP : RUN_FIRST;
  r.steps = n;
  Q->state = QS_FAILED;                     /* unless the step returns */
  run_search(L, &r, lua_gettop(L) - 1, lua_gettop(L));
  Q->begun = 1;
  Q->status = r.status;
  Q->state = r.status == ASTAR_SEARCHING ? QS_RUNNING : QS_DONE;
  if (Q->state == QS_DONE) {
    /* the outcome, as it is now: later changes to the topology (which make
    ** its step costs differ) must not rewrite a finished query's answer */
    int i, n, top = lua_gettop(L);
    n = push_outcome(L, T, &Q->S, &Q->o, Q->status);
    lua_createtable(L, n, 1);
    for (i = 1; i <= n; i++) {
      lua_pushvalue(L, top + i);
      lua_rawseti(L, -2, i);
    }
    lua_pushinteger(L, n);
    lua_setfield(L, -2, "n");
    compat_getuv(L, 1);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "result");
    lua_settop(L, top);
  }
  lua_pushstring(L, query_state_name(Q));
  return 1;
}

/* q:result() -> what find_path would have returned (nil, "searching",
** stats while it runs; nil, "cancelled", stats after cancel). */
static int l_query_result(lua_State *L) {
  lquery *Q = (lquery *)check_ud(L, 1, QUERY_MT);
  ltopo *T;
  if (Q->S.in_use) { /* asked from its own callback: not done yet */
    T = query_topo(L, 1);                   /* pushes the topology first */
    lua_pushnil(L);
    lua_pushstring(L, "searching");
    lua_createtable(L, 0, 5);
    push_stats(L, T, &Q->S, &Q->o);
    return 3;
  }
  if (Q->state == QS_FAILED)
    return luaL_error(L, "this query failed (an error was raised while it ran): start a new one");
  if (Q->state == QS_CANCELLED) {
    lua_pushnil(L);
    lua_pushstring(L, "cancelled");
    lua_newtable(L);
    return 3;
  }
  if (Q->state == QS_DONE) {                /* the snapshot made when it finished */
    int i, n;
    compat_getuv(L, 1);
    lua_getfield(L, -1, "result");
    lua_getfield(L, -1, "n");
    n = (int)lua_tonumber(L, -1);
    lua_pop(L, 1);
    for (i = 1; i <= n; i++) lua_rawgeti(L, -i, i);
    return n;
  }
  T = query_topo(L, 1);
  lua_pushnil(L);
  lua_pushstring(L, "searching");
  lua_createtable(L, 0, 5);
  push_stats(L, T, &Q->S, &Q->o);
  return 3;
}

/* Stops a running query; on a finished one only frees the search memory
** (its result stays: final statuses stick). */
static int l_query_cancel(lua_State *L) {
  lquery *Q = (lquery *)check_ud(L, 1, QUERY_MT);
  if (Q->S.in_use) return luaL_error(L, "cannot cancel a query while it is stepping");
  if (Q->state == QS_RUNNING) Q->state = QS_CANCELLED;
  query_release(Q);
  return 0;
}

static int l_query_status(lua_State *L) {
  lquery *Q = (lquery *)check_ud(L, 1, QUERY_MT);
  lua_pushstring(L, query_state_name(Q));
  return 1;
}

static int l_query_tostring(lua_State *L) {
  lquery *Q = (lquery *)check_ud(L, 1, QUERY_MT);
  const astar_stats *st = Q->S.s ? astar_search_stats(Q->S.s) : NULL;
  lua_pushfstring(L, "astar.Query (%s, %d expanded)", query_state_name(Q),
                  st ? (int)st->expanded : 0);
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Distance fields                                                            */
/* ------------------------------------------------------------------------ */

/* Reads the list of sources at arg (node ids, or {x, y} pairs on grids) into
** a scratch buffer owned by S.  Returns it and sets *n. */
static int32_t *read_sources(lua_State *L, ltopo *T, lsearch *S, int arg, size_t *n) {
  size_t i, count;
  if (!lua_istable(L, arg)) type_error(L, arg, "table (a list of sources)");
  count = compat_rawlen(L, arg);
  if (count == 0) arg_error(L, arg, "sources must be a non-empty list");
  S->nodes = (int32_t *)grow_scratch(L, S, S->nodes, &S->nodes_cap, count,
                                     sizeof(int32_t));
  for (i = 0; i < count; i++) {
    int top = lua_gettop(L);
    lua_rawgeti(L, arg, (int)i + 1);
    if (T->kind == KIND_GRAPH) {
      double v = lua_tonumber(L, -1);
      int32_t nn = astar_graph_node_count(T->graph);
      if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 1 || v > nn)
        arg_error(L, arg, lua_pushfstring(L, "sources[%d] must be a node id in 1..%d, got %s",
                                          (int)i + 1, (int)nn, describe(L, -1)));
      S->nodes[i] = (int32_t)v - 1;
    } else {
      int32_t w = astar_grid_width(T->grid), h = astar_grid_height(T->grid);
      double x = 0, y = 0;
      int ok = lua_istable(L, -1);
      if (ok) {
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        x = lua_tonumber(L, -2);
        y = lua_tonumber(L, -1);
        ok = lua_type(L, -2) == LUA_TNUMBER && lua_type(L, -1) == LUA_TNUMBER &&
             x == floor(x) && y == floor(y) && x >= 1 && y >= 1 && x <= w && y <= h;
        lua_pop(L, 2);
      }
      if (!ok)
        arg_error(L, arg, lua_pushfstring(L,
            "sources[%d] must be a cell {x, y} inside the %dx%d grid, got %s",
            (int)i + 1, (int)w, (int)h, describe(L, -1)));
      S->nodes[i] = (int32_t)(y - 1) * w + (int32_t)(x - 1);
    }
    lua_settop(L, top);
  }
  *n = count;
  return S->nodes;
}

/* graph:distances(sources [, opts]) -> dist, toward
** grid:distances({{x, y}, ...} [, opts]) -> field (with next_step) */
static int distances_common(lua_State *L, ltopo *T) {
  lsearch *S;
  lopts o;
  bridge b;
  run r;
  size_t n;
  int32_t i, count;
  if (!lua_istable(L, 2)) type_error(L, 2, "table (a list of sources)");
  lua_settop(L, 3);
  S = acquire_search(L);                    /* 4 */
  memset(&r, 0, sizeof r);
  r.sources = read_sources(L, T, S, 2, &n);
  r.nsources = n;
  parse_opts(L, T, 3, S, &o, 0, 0, OPTS_DIST);
  b.w = T->kind == KIND_GRID ? astar_grid_width(T->grid) : 0;
  r.T = T;
  r.S = S;
  r.o = &o;
  r.b = &b;
  r.op = RUN_DIST;
  run_search(L, &r, o.hslot, o.cslot);
  if (T->kind == KIND_GRID) {
    lfield *F = new_distance_field(L, 1, T);
    count = F->w * F->h;
    for (i = 0; i < count; i++) {
      double g = astar_search_g(S->s, i);
      int32_t d = astar_search_link(S->s, i);
      F->v[i] = g < 0 ? HUGE_VAL : g;
      field_dirs(F)[i] = (unsigned char)(d < 0 || g < 0 ? 255 : d);
    }
    F->toward = o.reverse;
    return 1;
  }
  count = astar_graph_node_count(T->graph);
  lua_createtable(L, count, 0);             /* dist */
  lua_createtable(L, count, 0);             /* toward */
  for (i = 0; i < count; i++) {
    double g = astar_search_g(S->s, i);
    int32_t e = astar_search_link(S->s, i);
    lua_pushnumber(L, g < 0 ? HUGE_VAL : g);
    lua_rawseti(L, -3, i + 1);
    if (e >= 0 && g >= 0) {
      lua_pushinteger(L, (lua_Integer)e + 1);
      lua_rawseti(L, -2, i + 1);
    }
  }
  return 2;
}

static int l_graph_distances(lua_State *L) {
  return distances_common(L, check_graph(L, 1));
}

static int l_grid_distances(lua_State *L) {
  return distances_common(L, check_grid(L, 1));
}

/* astar.audit_heuristic(topology, h [, { samples = n }]) -> report.
** For n (default 8) goals spread over the open nodes (each with a start
** halfway round the list, for the bisector heuristics), compares h with the
** true cost to the goal at every node that can reach it, and checks every
** step for consistency; all with the topology's own costs. */
static int l_audit_heuristic(lua_State *L) {
  static const char *const keys[] = {"samples", NULL};
  ltopo *T = check_any_topo(L, 1);
  int32_t n = topo_count(T), open = 0, samples = 8, i, v;
  lsearch *S, *D;
  lopts o;
  bridge b;
  astar_audit total;
  int32_t *ids;
  double max_over = 0, max_incons = 0;
  lua_settop(L, 3);
  if (lua_isnone(L, 2) || lua_isnil(L, 2)) type_error(L, 2, "heuristic");
  if (!lua_isnil(L, 3)) {
    if (!lua_istable(L, 3)) type_error(L, 3, "table");
    check_keys(L, 3, keys);
    lua_getfield(L, 3, "samples");
    if (!lua_isnil(L, -1)) samples = (int32_t)opt_count(L, 3, lua_gettop(L), "samples");
    lua_pop(L, 1);
  }
  S = new_search(L);                        /* 4 */
  D = new_search(L);                        /* 5 */
  ids = (int32_t *)compat_newud(L, (size_t)(n > 0 ? n : 1) * sizeof(int32_t)); /* 6 */
  for (v = 0; v < n; v++)
    if (node_open(T, v)) ids[open++] = v;
  if (open == 0) return luaL_error(L, "audit_heuristic: the topology has no open node");
  if (samples > open) samples = open;
  /* the heuristic, parsed as the option would be */
  astar_query_init(&o.q, 0, 0);
  if (T->kind == KIND_GRID) o.q.heuristic = ASTAR_H_OCTILE;
  o.want_trace = o.want_visited = o.partial = 0;
  for (i = 0; i < 5; i++) lua_pushnil(L);
  o.hslot = lua_gettop(L) - 4;
  o.cslot = o.hslot + 1;
  o.pslot = o.hslot + 2;
  o.fslot = o.hslot + 3;
  o.oslot = o.hslot + 4;
  parse_heuristic(L, T, 2, 2, &o);
  memset(&total, 0, sizeof total);
  b.w = T->kind == KIND_GRID ? astar_grid_width(T->grid) : 0;
  for (i = 0; i < samples; i++) {
    int32_t gi = (int32_t)(((double)i + 0.5) * open / samples);
    run r;
    memset(&r, 0, sizeof r);
    o.q.goal = ids[gi];
    o.q.start = ids[(gi + open / 2) % open];
    plain_distances(L, T, D, &o.q.goal, 1, 1);
    r.T = T;
    r.S = S;
    r.o = &o;
    r.b = &b;
    r.op = RUN_AUDIT;
    r.dist = D;
    run_search(L, &r, o.hslot, o.cslot);
    total.checked += r.audit.checked;
    total.overestimates += r.audit.overestimates;
    total.steps += r.audit.steps;
    total.inconsistent += r.audit.inconsistent;
    if (r.audit.max_overestimate > max_over) max_over = r.audit.max_overestimate;
    if (r.audit.max_inconsistency > max_incons) max_incons = r.audit.max_inconsistency;
  }
  lua_createtable(L, 0, 10);
  lua_pushboolean(L, total.overestimates == 0);
  lua_setfield(L, -2, "admissible");
  lua_pushboolean(L, total.inconsistent == 0);
  lua_setfield(L, -2, "consistent");
  set_num(L, "max_overestimate", max_over);
  set_num(L, "excess_bound", max_over);
  set_num(L, "max_inconsistency", max_incons);
  set_int(L, "violations", (double)total.inconsistent);
  set_int(L, "overestimates", (double)total.overestimates);
  set_int(L, "checked", (double)total.checked);
  set_int(L, "steps", (double)total.steps);
  set_int(L, "samples", samples);
  return 1;
}

/* ------------------------------------------------------------------------ */
/* Registration                                                               */
/* ------------------------------------------------------------------------ */

static const luaL_Reg graph_methods[] = {
    {"add_node", l_graph_add_node},     {"add_edge", l_graph_add_edge},
    {"connect", l_graph_connect},       {"node_count", l_graph_node_count},
    {"edge_count", l_graph_edge_count}, {"position", l_graph_position},
    {"edge", l_graph_edge},             {"set_cost", l_graph_set_cost},
    {"set_enabled", l_graph_set_enabled}, {"is_enabled", l_graph_is_enabled},
    {"find_path", l_graph_find_path},   {"close", l_graph_gc},
    {"query", l_graph_query},           {"distances", l_graph_distances},
    {NULL, NULL}};

static const luaL_Reg graph_metamethods[] = {
    {"__gc", l_graph_gc}, {"__close", l_graph_gc}, {"__tostring", l_graph_tostring},
    {NULL, NULL}};

static const luaL_Reg grid_methods[] = {
    {"set_blocked", l_grid_set_blocked}, {"is_blocked", l_grid_is_blocked},
    {"set_cost", l_grid_set_cost},       {"get_cost", l_grid_get_cost},
    {"set_tag", l_grid_set_tag},         {"get_tag", l_grid_get_tag},
    {"id", l_grid_id},                   {"xy", l_grid_xy},
    {"size", l_grid_size},               {"diagonal", l_grid_diagonal},
    {"line_of_sight", l_grid_line_of_sight},
    {"visible_from", l_grid_visible_from}, {"to_string", l_grid_to_string},
    {"memory", l_grid_memory},
    {"find_path", l_grid_find_path},     {"close", l_grid_gc},
    {"query", l_grid_query},             {"distances", l_grid_distances},
    {NULL, NULL}};

static const luaL_Reg field_methods[] = {
    {"get", l_field_get},   {"set", l_field_set},           {"fill", l_field_fill},
    {"add_disc", l_field_add_disc}, {"size", l_field_size},
    {"next_step", l_field_next_step}, {NULL, NULL}};

static const luaL_Reg heur_methods[] = {{"value", l_heur_value}, {NULL, NULL}};
static const luaL_Reg heur_metamethods[] = {{"__tostring", l_heur_tostring},
                                            {NULL, NULL}};

static const luaL_Reg query_methods[] = {
    {"step", l_query_step},     {"result", l_query_result},
    {"cancel", l_query_cancel}, {"status", l_query_status},
    {NULL, NULL}};

static const luaL_Reg query_metamethods[] = {
    {"__gc", l_query_gc}, {"__close", l_query_cancel},
    {"__tostring", l_query_tostring}, {NULL, NULL}};

static const luaL_Reg field_metamethods[] = {{"__tostring", l_field_tostring},
                                             {NULL, NULL}};

static const luaL_Reg grid_metamethods[] = {
    {"__gc", l_grid_gc}, {"__close", l_grid_gc}, {"__tostring", l_grid_tostring},
    {NULL, NULL}};

static const luaL_Reg search_metamethods[] = {{"__gc", l_search_gc}, {NULL, NULL}};

static const luaL_Reg funcs[] = {
    {"graph", l_graph_new},
    {"grid", l_grid_new},
    {"grid_from_string", l_grid_from_string},
    {"field", l_field_new},
    {"cluster_heuristic", l_cluster_heuristic},
    {"landmarks", l_landmarks},
    {"register_heuristic", l_register_heuristic},
    {"audit_heuristic", l_audit_heuristic},
    {"heuristics", l_heuristics},
    {NULL, NULL}};

/* Registers l into the table on top as closures over (name, is_method):
** see arg_error. */
static void set_funcs(lua_State *L, const luaL_Reg *l, int method) {
  for (; l->name != NULL; l++) {
    lua_pushstring(L, l->name);
    lua_pushboolean(L, method);
    lua_pushcclosure(L, l->func, 2);
    lua_setfield(L, -2, l->name);
  }
}

static void new_class(lua_State *L, const char *name, const luaL_Reg *meta,
                      const luaL_Reg *methods) {
  luaL_newmetatable(L, name);
  lua_pushstring(L, name);   /* 5.3+ set it already; 5.1 and 5.2 do not */
  lua_setfield(L, -2, "__name");
  set_funcs(L, meta, 1);
  if (methods) {
    lua_newtable(L);
    set_funcs(L, methods, 1);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
}

int luaopen_astar_core(lua_State *L) {
  new_class(L, GRAPH_MT, graph_metamethods, graph_methods);
  new_class(L, GRID_MT, grid_metamethods, grid_methods);
  new_class(L, SEARCH_MT, search_metamethods, NULL);
  new_class(L, FIELD_MT, field_metamethods, field_methods);
  new_class(L, QUERY_MT, query_metamethods, query_methods);
  new_class(L, HEUR_MT, heur_metamethods, heur_methods);
  luaL_newmetatable(L, GRID_PATH_MT);
  lua_pushcfunction(L, grid_path_index);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY); /* shared by every require */
  if (lua_isnil(L, -1)) {
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, REGISTRY_KEY);
  }
  lua_pop(L, 1);
  lua_newtable(L);
  set_funcs(L, funcs, 0);
  lua_pushliteral(L, ASTAR_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushnumber(L, ASTAR_GRID_DIAG);
  lua_setfield(L, -2, "DIAGONAL");
  return 1;
}
