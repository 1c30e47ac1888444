/*
** lgraph.c -- astar.Graph: a directed weighted multigraph.  Its class (how
** a graph names, shows and returns nodes) and its own methods; the searches
** are the generic ones of lsearch.c and lquery.c.  Included by lastar.c.
**
** A graph names a node by one id (1-based in Lua, 0-based in the core, the
** same numbers otherwise: graph.c's internal and external ids agree), and a
** step by its edge: callbacks get (from, to, cost, edge), paths list their
** edges, distances say which edge leads on.  Tags are interned per graph
** (ltopo.c) and may be any string: the core keeps int32 ids.
*/

#define GRAPH_MT "astar.Graph"
#define GRAPH(T) ((astar_graph *)(T)->impl)

/* ------------------------------------------------------------------------ */
/* the class                                                                  */
/* ------------------------------------------------------------------------ */

/* The class functions (see ltopo_class).  None of them allocates on
** success: the generic callers read nodes before they hold anything. */
static void graph_free(void *impl) { astar_graph_free((astar_graph *)impl); }
static astar_topology *graph_topology(void *impl) {
  return astar_graph_topology((astar_graph *)impl);
}

static int graph_shape(ltopo *T, int32_t *w, int32_t *h) {
  (void)T;
  *w = *h = 0;
  return 0; /* no per-node fields */
}

static int32_t graph_check_node(lua_State *L, ltopo *T, int arg) {
  return check_id(L, arg, "node", astar_graph_node_count(GRAPH(T)), "graph");
}

/* An entry of a list of nodes (sources): read raw by the caller; an
** integral number in range, or an error naming the entry. */
static int32_t graph_list_node(lua_State *L, ltopo *T, int arg, int vidx, const char *what,
                               size_t i) {
  double v = lua_tonumber(L, vidx);
  int32_t nn = astar_graph_node_count(GRAPH(T));
  if (lua_type(L, vidx) != LUA_TNUMBER || v != floor(v) || v < 1 || v > nn)
    arg_error(L, arg, lua_pushfstring(L, "%s[%d] must be a node id in 1..%d, got %s", what, (int)i + 1, (int)nn, describe(L, vidx)));
  return (int32_t)v - 1;
}

/* A node as callbacks get it: one value, the 1-based id. */
static int graph_push_node(lua_State *L, ltopo *T, int32_t id) {
  (void)T;
  lua_pushinteger(L, (lua_Integer)id + 1);
  return 1;
}

static const char *graph_node_name(lua_State *L, ltopo *T, int32_t id) {
  (void)T;
  return lua_pushfstring(L, "node %d", (int)id + 1);
}

/* The cost callback's arguments: cost(from, to, cost, edge), ids 1-based;
** `cost` is the step's cost after the query's tag factors. */
static int graph_push_step(lua_State *L, ltopo *T, int32_t from, int32_t to, int32_t link,
                           double cost) {
  (void)T;
  lua_pushinteger(L, (lua_Integer)from + 1);
  lua_pushinteger(L, (lua_Integer)to + 1);
  lua_pushnumber(L, cost);
  lua_pushinteger(L, (lua_Integer)link + 1);
  return 4;
}

/* A step in a cost callback's error message (the edge names it; the nodes
** say where it is). */
static const char *graph_step_name(lua_State *L, ltopo *T, int32_t from, int32_t to,
                                   int32_t link) {
  (void)T;
  return lua_pushfstring(L, "edge %d from node %d to node %d", (int)link + 1, (int)from + 1,
                         (int)to + 1);
}

/* What a step cost that came out bad is blamed on: on a graph the edge
** (its cost is the one the factors multiplied). */
static const char *graph_cost_subject(lua_State *L, ltopo *T, int32_t from, int32_t to,
                                      int32_t link) {
  (void)T;
  (void)from;
  (void)to;
  return lua_pushfstring(L, "edge %d", (int)link + 1);
}

/* path.edges: the edge ids the path uses */
static void graph_path_extras(lua_State *L, ltopo *T, const int32_t *links, int32_t len,
                              double length) {
  (void)T;
  (void)length;
  push_id_list(L, links, len > 0 ? (size_t)len - 1 : 0);
  lua_setfield(L, -2, "edges");
}

/* dist (inf where unreached) and toward (the edge of each reached node's
** link: the first edge toward the nearest source, or with direction =
** "from_sources" the last edge from it) */
static int graph_push_distances(lua_State *L, ltopo *T, int tidx, astar_search *s,
                                int reverse) {
  int32_t i, count = astar_graph_node_count(GRAPH(T));
  (void)tidx;
  (void)reverse;
  lua_createtable(L, count, 0);
  lua_createtable(L, count, 0);
  for (i = 0; i < count; i++) {
    double g = astar_search_g(s, i);
    int32_t e = astar_search_link(s, i);
    lua_pushnumber(L, g < 0 ? HUGE_VAL : g);
    lua_rawseti(L, -3, i + 1);
    if (e >= 0 && g >= 0) {
      lua_pushinteger(L, (lua_Integer)e + 1);
      lua_rawseti(L, -2, i + 1);
    }
  }
  return 2;
}

static const ltopo_class graph_class = {
    .mt = GRAPH_MT,
    .what = "graph",
    .node_args = 1,
    .max_tag = INT32_MAX - 1,
    .free = graph_free,
    .topology = graph_topology,
    .shape = graph_shape,
    .check_node = graph_check_node,
    .list_node = graph_list_node,
    .push_node = graph_push_node,
    .node_name = graph_node_name,
    .push_step = graph_push_step,
    .step_name = graph_step_name,
    .cost_subject = graph_cost_subject,
    .step_word = "edge",
    .path_extras = graph_path_extras,
    .path_fields = 1,
    .trace_extras = NULL,
    .push_distances = graph_push_distances,
};

/* ------------------------------------------------------------------------ */
/* methods                                                                    */
/* ------------------------------------------------------------------------ */

/* astar.graph() -> a new empty graph.  The userdata exists before the
** graph does (create first, acquire second): a failed allocation leaves an
** empty userdata for the collector, nothing unowned. */
static int l_graph_new(lua_State *L) {
  lstate *M = get_state(L);
  ltopo *T = topo_new(L, &graph_class);
  topo_attach(L, T, astar_graph_new(state_alloc, M));
  return 1;
}

static int32_t check_edge(lua_State *L, ltopo *T, int arg) {
  return check_id(L, arg, "edge", astar_graph_edge_count(GRAPH(T)), "graph");
}

/* g:add_node(x, y [, z]) -> id.  The core's arrays grow geometrically;
** the growth is reported to the collector (account) once done. */
static int l_graph_add_node(lua_State *L) {
  ltopo *T = check_self(L);
  double x = check_finite(L, 2, "x"), y = check_finite(L, 3, "y");
  double z = lua_isnoneornil(L, 4) ? 0 : check_finite(L, 4, "z");
  int32_t id;
  int rc;
  check_mutable(L, T);
  if ((rc = astar_graph_add_node(GRAPH(T), x, y, z, &id)) != ASTAR_OK) return status_error(L, rc);
  lua_pushinteger(L, (lua_Integer)id + 1);
  account(L, T->o.M);
  return 1;
}

/*
** add_edge(from, to, cost [, tag]) and connect(a, b, cost [, tag]) (both
** ways).  Interning a tag name allocates, and a finalizer may then run:
** with a tag the call runs protected (the graph held), without one it
** allocates nothing Lua sees and runs plain.
*/
static int add_edges(lua_State *L, lcall *C, int both) {
  ltopo *T = check_self(L);
  int32_t from, to, tag = 0, e1, e2;
  double cost;
  int rc;
  if (C) hold(L, C, &T->o, 0);
  from = graph_check_node(L, T, 2);
  to = graph_check_node(L, T, 3);
  cost = check_cost(L, 4, "cost");
  check_mutable(L, T);
  if (!lua_isnoneornil(L, 5)) {
    if (lua_type(L, 5) != LUA_TSTRING) type_error(L, 5, "string (tag name)");
    tag = intern_tag(L, 1, 5, graph_class.max_tag);
    check_mutable(L, T); /* a finalizer's search ended */
  }
  if ((rc = astar_graph_add_edge(GRAPH(T), from, to, cost, tag, &e1)) != ASTAR_OK)
    return status_error(L, rc);
  lua_pushinteger(L, (lua_Integer)e1 + 1);
  if (!both) return 1;
  if ((rc = astar_graph_add_edge(GRAPH(T), to, from, cost, tag, &e2)) != ASTAR_OK)
    return status_error(L, rc); /* e1 stays: the graph is valid */
  lua_pushinteger(L, (lua_Integer)e2 + 1);
  return 2;
}

static int graph_add_edge_tagged(lua_State *L) { return add_edges(L, call_frame(L), 0); }
static int graph_connect_tagged(lua_State *L) { return add_edges(L, call_frame(L), 1); }

static int l_graph_add_edge(lua_State *L) {
  int n;
  if (!lua_isnoneornil(L, 5)) return l_protected(L); /* graph_add_edge_tagged */
  n = add_edges(L, NULL, 0);
  account(L, get_state(L));
  return n;
}

static int l_graph_connect(lua_State *L) {
  int n;
  if (!lua_isnoneornil(L, 5)) return l_protected(L); /* graph_connect_tagged */
  n = add_edges(L, NULL, 1);
  account(L, get_state(L));
  return n;
}

static int l_graph_node_count(lua_State *L) {
  lua_pushinteger(L, astar_graph_node_count(GRAPH(check_self(L))));
  return 1;
}

static int l_graph_edge_count(lua_State *L) {
  lua_pushinteger(L, astar_graph_edge_count(GRAPH(check_self(L))));
  return 1;
}

static int l_graph_position(lua_State *L) {
  ltopo *T = check_self(L);
  double xyz[3] = {0.0, 0.0, 0.0}; /* written by the core: the node was checked */
  astar_graph_position(GRAPH(T), graph_check_node(L, T, 2), xyz);
  lua_pushnumber(L, xyz[0]);
  lua_pushnumber(L, xyz[1]);
  lua_pushnumber(L, xyz[2]);
  return 3;
}

/* g:edge(e) -> from, to, cost, tag (the tag's name, or nil). */
static int l_graph_edge(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t from = 0, to = 0, tag = 0; /* written by the core: the edge was checked */
  double cost = 0.0;
  astar_graph_edge(GRAPH(T), check_edge(L, T, 2), &from, &to, &cost, &tag);
  lua_pushinteger(L, (lua_Integer)from + 1);
  lua_pushinteger(L, (lua_Integer)to + 1);
  lua_pushnumber(L, cost);
  push_tag_name(L, 1, tag);
  return 4;
}

/* g:set_cost(e, cost): written through to the adjacency; a search begun
** before it (a query between steps) sees the change (ECHANGED). */
static int l_graph_set_cost(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t e = check_edge(L, T, 2);
  double cost = check_cost(L, 3, "cost");
  check_mutable(L, T);
  check_status(L, astar_graph_set_cost(GRAPH(T), e, cost));
  return 0;
}

/* g:set_enabled(n, on) and g:is_enabled(n): a disabled node is
** impassable, as a path end too. */
static int l_graph_set_enabled(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t n = graph_check_node(L, T, 2);
  int on = check_bool(L, 3);
  check_mutable(L, T);
  check_status(L, astar_graph_set_enabled(GRAPH(T), n, on));
  return 0;
}

static int l_graph_is_enabled(lua_State *L) {
  ltopo *T = check_self(L);
  lua_pushboolean(L, astar_graph_enabled(GRAPH(T), graph_check_node(L, T, 2)));
  return 1;
}

/* __tostring works on a closed graph too (it says so): it reads nothing
** the close freed. */
static int l_graph_tostring(lua_State *L) {
  ltopo *T;
  if (topo_class_of(L, 1) != &graph_class) type_error(L, 1, GRAPH_MT);
  T = (ltopo *)lua_touserdata(L, 1);
  if (T->o.closed) lua_pushliteral(L, "astar.Graph (closed)");
  else
    lua_pushfstring(L, "astar.Graph (%d nodes, %d edges)", (int)astar_graph_node_count(GRAPH(T)),
                    (int)astar_graph_edge_count(GRAPH(T)));
  return 1;
}

static int l_graph_path_valid(lua_State *L); /* lstale.c */

/* The graph's own methods; find_path, query, distances and close are the
** shared ones (lastar.c: topo_methods). */
static int l_graph_nearest(lua_State *L); /* lgoals.c */

static const lfunc graph_methods[] = {
    {"add_node", l_graph_add_node, 0, NULL},
    {"add_edge", l_graph_add_edge, 0, graph_add_edge_tagged},
    {"connect", l_graph_connect, 0, graph_connect_tagged},
    {"node_count", l_graph_node_count, 0, NULL},
    {"edge_count", l_graph_edge_count, 0, NULL},
    {"position", l_graph_position, 0, NULL},
    {"edge", l_graph_edge, 0, NULL},
    {"set_cost", l_graph_set_cost, 0, NULL},
    {"set_enabled", l_graph_set_enabled, 0, NULL},
    {"is_enabled", l_graph_is_enabled, 0, NULL},
    {"nearest", l_graph_nearest, 0, NULL},
    {"path_valid", l_graph_path_valid, 1, NULL},
    {NULL, NULL, 0, NULL}};

static const lfunc graph_metamethods[] = {
    {"__gc", l_topo_gc, 0, NULL},
    {"__close", l_topo_close, 0, NULL},
    {"__tostring", l_graph_tostring, 0, NULL},
    {NULL, NULL, 0, NULL}};
