/*
** lstale.c -- what changed, and whether a path handed out still holds:
** topology:version(), grid:changes(since [, max]) and
** topology:path_valid(path [, from_index [, opts]]).  Included by lastar.c
** (after lsmooth.c, whose step messages path_valid shares).
**
** Every path records the version of the map it was made on (path.version,
** lresult.c) and a sized unit's size (path.size).  A game keeps the
** version it last looked at, asks changes(since) for the cells changed
** since (the grid's change log, TOPO_CHANGE_LOG entries), and re-checks
** with path_valid only the paths that cross them.
*/

/* topology:version() -> the map's version: a number that changes with
** every change (a mutator that changes nothing keeps it). */
static int l_topo_version(lua_State *L) {
  ltopo *T = check_self(L);
  lua_pushinteger(L, (lua_Integer)astar_topology_version(T->t));
  return 1;
}

/*
** grid:changes(since [, max]) -> ids, version | nil, "overflow": the cells
** (ids, as in path.nodes, each once, the most recently changed first)
** changed since version `since` (an integer in 0..the current version), and
** the current version to ask from next time; nil, "overflow" when the log
** does not reach back that far or more than max changes (default and at
** most the log's size) were made since.
*/
static int l_cells_changes(lua_State *L) {
  ltopo *T = check_self(L);
  uint32_t now = astar_topology_version(T->t);
  int32_t since = check_range(L, 2, "since", 0, (int32_t)(now > INT32_MAX ? INT32_MAX : now));
  int32_t max = lua_isnoneornil(L, 3) ? TOPO_CHANGE_LOG
                                      : check_range(L, 3, "max", 1, TOPO_CHANGE_LOG);
  int32_t *cells, i, k = 0;
  size_t n = 0;
  lua_settop(L, 3);
  cells = (int32_t *)compat_newud(L, (size_t)max * sizeof(int32_t)); /* 4 */
  if (astar_grid_changes(T->grid, (uint32_t)since, cells, (size_t)max, &n) != ASTAR_OK) {
    lua_pushnil(L);
    lua_pushliteral(L, "overflow");
    return 2;
  }
  lua_createtable(L, (int)n, 0); /* 5: the list */
  lua_createtable(L, 0, (int)n); /* 6: the ids listed */
  for (i = 0; i < (int32_t)n; i++) {
    lua_rawgeti(L, 6, cells[i] + 1);
    if (lua_isnil(L, -1)) {
      lua_pushboolean(L, 1);
      lua_rawseti(L, 6, cells[i] + 1);
      lua_pushinteger(L, (lua_Integer)cells[i] + 1);
      lua_rawseti(L, 5, ++k);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_pushinteger(L, (lua_Integer)now);
  return 2;
}

/* Reads path.nodes (the table at arg 2) into b->nodes; its length. */
static int32_t read_path_nodes(lua_State *L, lcall *C, ltopo *T, lsbuf *b) {
  int32_t count = astar_topology_node_count(T->t), i, n;
  size_t len;
  lua_getfield(L, 2, "nodes");
  if (!lua_istable(L, -1))
    arg_error(L, 2, lua_pushfstring(L, "path.nodes must be a list of %s ids, got %s", T->grid ? "cell" : "node", describe(L, -1)));
  len = compat_rawlen(L, -1);
  if (len < 1 || len > (size_t)INT32_MAX / 8)
    arg_error(L, 2, lua_pushfstring(L, "path.nodes must hold at least one %s, got %d entries", T->grid ? "cell" : "node", (int)(len > INT32_MAX ? INT32_MAX : len)));
  n = (int32_t)len;
  b->nodes = (int32_t *)sbuf_grow(L, C->M, b->nodes, &b->nodes_cap, len, sizeof(int32_t));
  for (i = 0; i < n; i++) {
    double v;
    lua_rawgeti(L, -1, i + 1);
    v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 1 || v > (double)count)
      arg_error(L, 2, lua_pushfstring(L, "path.nodes[%d] must be a %s id in 1..%d, got %s", (int)i + 1, T->grid ? "cell" : "node", (int)count, describe(L, -1)));
    b->nodes[i] = (int32_t)v - 1;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return n;
}

/* The unit size a path records (path.size: absent is 1). */
static int32_t path_size(lua_State *L) {
  int32_t k = 1;
  lua_getfield(L, 2, "size");
  if (!lua_isnil(L, -1)) {
    double v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 1 || v > ASTAR_MAX_UNIT)
      arg_error(L, 2, lua_pushfstring(L, "path.size must be an integer in 1..%d, got %s", (int)ASTAR_MAX_UNIT, describe(L, -1)));
    k = (int32_t)v;
  }
  lua_pop(L, 1);
  return k;
}

/* path_valid's arguments (stack: 1 topology, 2 path, 3 from_index, 4
** options; then 5 the search state and the option slots): the path's
** nodes in the search state's b.nodes (*n of them), *from, the options. */
static lsearch *path_valid_args(lua_State *L, lcall *C, ltopo *T, lopts *o, int32_t *n,
                                int32_t *from) {
  lsearch *S;
  if (!lua_istable(L, 2)) type_error(L, 2, "table (a path)");
  lua_settop(L, 4);
  S = acquire_search(L, C, 1);
  *n = read_path_nodes(L, C, T, &S->b);
  *from = lua_isnil(L, 3) ? 1 : check_range(L, 3, "from_index", 1, *n);
  parse_options(L, C, T, 1, 4, &S->b, o, 0, 0, FOR_PATH);
  return S;
}

/*
** grid:path_valid(path [, from_index [, opts]]) -> true | false, index:
** whether a unit can still walk path.nodes from entry from_index (default
** 1) to its end on the grid as it is: it can stand on that entry, and
** every later step is one a search could take (the cell entered open and
** not forbidden, a diagonal as the rule allows it), for the unit's size
** (opts.size, else path.size, else 1) and the cost options opts gives (the
** path's own options: tags that costs forbids, the forbid field; its
** search-only options are accepted and ignored).  false and the index of
** the first entry it cannot stand on or step into.  A table that is no
** path of this grid (ids out of range, entries not neighbours) raises, as
** grid:smooth does.
*/
static int l_cells_path_valid(lua_State *L) {
  /* stack: 1 grid, 2 path, 3 from_index, 4 options, 5 search state, then
  ** the option slots */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int32_t n, i, from;
  lopts o;
  lsearch *S = path_valid_args(L, C, T, &o, &n, &from);
  if (!given(&o, "size")) o.q.size = path_size(L);
  for (i = from - 1; i < n; i++) {
    int32_t prev = i > from - 1 ? S->b.nodes[i - 1] : -1, c = S->b.nodes[i], cell;
    int fault = astar_grid_step_fault(T->grid, &o.q, prev, c, &cell);
    switch (fault) {
      case ASTAR_STEP_OK: continue;
      case ASTAR_STEP_BLOCKED:
      case ASTAR_STEP_FORBIDDEN:
      case ASTAR_STEP_TAG:
      case ASTAR_STEP_CORNER:
        lua_pushboolean(L, 0);
        lua_pushinteger(L, (lua_Integer)i + 1);
        return 2;
      default: /* not a path of this grid */
        return step_error(L, T, &o, i, prev, c, fault, cell);
    }
  }
  lua_pushboolean(L, 1);
  return 1;
}

/*
** graph:path_valid(path [, from_index [, opts]]) -> true | false, index:
** every node from entry from_index on is enabled, and every edge after it
** (path.edges, one between each two nodes) is not forbidden by the tag
** factors of opts.costs.  false and the index (in path.nodes) of the first
** node that is disabled or entered by a forbidden edge.  Edges that do not
** join their nodes raise.
*/
static int l_graph_path_valid(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  astar_graph *g = GRAPH(T);
  int32_t n, i, from, edge = -1, ne = astar_graph_edge_count(g);
  lopts o;
  lsearch *S = path_valid_args(L, C, T, &o, &n, &from);
  lua_getfield(L, 2, "edges");
  if (n > 1 && !lua_istable(L, -1))
    arg_error(L, 2, lua_pushfstring(L, "path.edges must be a list of edge ids, got %s", describe(L, -1)));
  for (i = from - 1; i < n; i++) {
    int32_t u = S->b.nodes[i];
    if (i > from - 1) {
      int32_t a = -1, b = -1;
      double e;
      lua_rawgeti(L, -1, i);
      e = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || e != floor(e) || e < 1 || e > ne)
        arg_error(L, 2, lua_pushfstring(L, "path.edges[%d] must be an edge id in 1..%d, got %s", (int)i, (int)ne, describe(L, -1)));
      lua_pop(L, 1);
      astar_graph_edge(g, (int32_t)e - 1, &a, &b, NULL, NULL);
      if (a != S->b.nodes[i - 1] || b != u)
        arg_error(L, 2, lua_pushfstring(L, "path.edges[%d] (edge %d) does not lead from path.nodes[%d] to path.nodes[%d]", (int)i, (int)e, (int)i, (int)i + 1));
      edge = (int32_t)e - 1;
    }
    /* the step as a search would take it (the core's reading of the
    ** filter: a disabled node, an edge whose tag the costs forbid) */
    if (astar_graph_step_fault(g, &o.q, i > from - 1 ? S->b.nodes[i - 1] : -1, edge, u) !=
        ASTAR_STEP_OK) {
      lua_pushboolean(L, 0);
      lua_pushinteger(L, (lua_Integer)i + 1);
      return 2;
    }
  }
  lua_pushboolean(L, 1);
  return 1;
}

/* heuristic:stale() -> true once the topology the table was built for
** changed since (the table may overestimate on it now: a query guided by
** it ends "changed", find_path refuses it); false while it serves, and once
** the topology is closed (it changes no more), as field:stale. */
static int l_heur_stale(lua_State *L) {
  lheur *H = (lheur *)check_ud(L, 1, HEUR_MT);
  lua_pushboolean(L, H->tab != NULL && !H->T->o.closed && H->T->t != NULL &&
                         !astar_table_serves(H->tab, H->T->t));
  return 1;
}
