-- Rule 1: close() (or a <close> variable) of the graph or grid a call is
-- using, from its callbacks or an __index of its arguments, takes effect when
-- the call ends; meanwhile the object answers as closed, and the call returns
-- what it would have returned.  The rules: spec/lifetime/common.lua.
--
-- `<close>` only in chunks loaded on 5.4.
local astar = require("astar")
local H = require("lifetime.common")
local REF = H.references()
local outcome, W, GOAL, path_opts, octile = H.outcome, H.W, H.GOAL, H.path_opts, H.octile
local euclid_graph, query_digest, cancelled_story, same = H.euclid_graph, H.query_digest, H.cancelled_story, H.same
local usable, window, closed_window, assert_closed = H.usable, H.window, H.closed_window, H.assert_closed
local new_topo, do_find_path, do_query, do_distances = H.new_topo, H.do_find_path, H.do_query, H.do_distances
local path_ref, dist_ref, passthrough = H.path_ref, H.dist_ref, H.passthrough

describe("lifetime: close() from inside a call takes effect when the call ends", function()
  for _, kind in ipairs({ "grid", "graph" }) do
    for _, which in ipairs({ "heuristic", "cost" }) do
      it(("%s:find_path: its %s callback closes the %s"):format(kind, which, kind), function()
        local g = new_topo(kind)
        local seen
        local p = do_find_path(g, kind, path_opts({ [which] = passthrough(which, kind, function()
          if not seen then
            seen = { close = outcome(g.close, g), again = outcome(g.close, g) }
            seen.window = window(g, kind)
          end
        end) }))
        same(path_ref(kind), H.path_digest(p), "the path")
        assert.same({ close = "no error", again = "no error", window = closed_window(kind) }, seen)
        assert_closed(g, kind)
      end)
    end

    it(("%s:distances: its cost callback closes the %s"):format(kind, kind), function()
      local g = new_topo(kind)
      local seen
      local got = do_distances(g, kind, { cost = passthrough("cost", kind, function()
        if not seen then seen = { close = outcome(g.close, g), window = window(g, kind) } end
      end) })
      same(dist_ref(kind), got, "the distances")
      assert.same({ close = "no error", window = closed_window(kind) }, seen)
      assert_closed(g, kind)
    end)

    it(("%s query: a callback closes the %s during a step that finishes it"):format(kind, kind), function()
      local g = new_topo(kind)
      local seen
      local q = do_query(g, kind, path_opts({ cost = passthrough("cost", kind, function()
        if not seen then seen = { close = outcome(g.close, g), window = window(g, kind) } end
      end) }))
      local st = q:step()
      assert.equal("found", st)
      assert.same({ close = "no error", window = closed_window(kind) }, seen)
      -- the query finished before the close took effect: it keeps its result
      same("found | found | found | " .. path_ref(kind) .. " | path | found", query_digest(q, st), "the query")
      assert_closed(g, kind)
    end)

    it(("%s query: a callback closes the %s during a step that leaves it searching"):format(kind, kind), function()
      local g = new_topo(kind)
      local seen
      local q = do_query(g, kind, path_opts({ cost = passthrough("cost", kind, function()
        if not seen then seen = { close = outcome(g.close, g), window = window(g, kind) } end
      end) }))
      local st = q:step(10)
      assert.equal("searching", st)
      assert.same({ close = "no error", window = closed_window(kind) }, seen)
      -- the close took effect after the step: the running query is cancelled
      same(cancelled_story("searching"), query_digest(q, st), "the query")
      assert_closed(g, kind)
    end)

    it(("astar.audit_heuristic on a %s: its Lua heuristic closes the %s"):format(kind, kind), function()
      local g = new_topo(kind)
      local h = kind == "grid" and octile or euclid_graph(new_topo(kind))
      local seen
      local r = astar.audit_heuristic(g, function(...)
        if not seen then seen = { close = outcome(g.close, g), window = window(g, kind) } end
        return h(...)
      end, { samples = 2 })
      same(kind == "grid" and REF.grid_audit_lua or REF.graph_audit_lua, H.report_digest(r), "the report")
      assert.same({ close = "no error", window = closed_window(kind) }, seen)
      assert_closed(g, kind)
    end)

    it(("astar.audit_heuristic on a %s: the options' __index closes the %s"):format(kind, kind), function()
      local g = new_topo(kind)
      local seen
      local opts = setmetatable({}, { __index = function(_, k)
        if k == "samples" and not seen then seen = { close = outcome(g.close, g), window = window(g, kind) } end
        if k == "samples" then return 2 end
      end })
      local r = astar.audit_heuristic(g, kind == "grid" and "octile" or "euclidean", opts)
      same(kind == "grid" and REF.grid_audit or REF.graph_audit, H.report_digest(r), "the report")
      assert.same({ close = "no error", window = closed_window(kind) }, seen)
      assert_closed(g, kind)
    end)

    it(("astar.cluster_heuristic on a %s: the clusters' __index closes the %s"):format(kind, kind), function()
      local twin = new_topo(kind)
      local h_ref = astar.cluster_heuristic(twin, { count = 3 })
      twin:close()
      local g = new_topo(kind)
      local seen
      local clusters = setmetatable({}, { __index = function(_, k)
        if k == "count" and not seen then seen = { close = outcome(g.close, g), window = window(g, kind) } end
        if k == "count" then return 3 end
      end })
      local h = astar.cluster_heuristic(g, clusters)
      assert.same({ close = "no error", window = closed_window(kind) }, seen)
      -- the heuristic of a closed topology: the same object, refusing :value
      same(H.heur_digest(h_ref, kind), H.heur_digest(h, kind), "the heuristic")
      assert.equal("astar.Heuristic (cluster table, 3 clusters)", tostring(h))
      assert_closed(g, kind)
    end)
  end

  it("grid:to_string: the path's __index closes the grid", function()
    local g = H.new_grid()
    local seen
    local path = setmetatable({}, { __index = function(_, k)
      if k == "nodes" then
        if not seen then seen = { close = outcome(g.close, g), window = window(g, "grid") } end
        return REF.grid_route
      end
    end })
    assert.equal(REF.grid_string, g:to_string(path))
    assert.same({ close = "no error", window = closed_window("grid") }, seen)
    assert_closed(g, "grid")
  end)

  it("a close inside a nested search waits for the outer one too", function()
    local g = H.new_grid()
    local inner, after_inner
    local p = g:find_path(1, 1, W, 1, path_opts({ cost = function(_, _, _, _, c)
      if not inner then
        inner = H.path_digest(g:find_path(1, 1, W, 1, { cost = function(_, _, _, _, c2)
          g:close()
          return c2
        end }))
        after_inner = window(g, "grid") -- the inner call ended, the outer still holds the grid
      end
      return c
    end }))
    same(REF.grid_path, H.path_digest(p), "the outer path")
    same(REF.grid_plain, inner, "the inner path")
    assert.same(closed_window("grid"), after_inner)
    assert_closed(g, "grid")
  end)

  it("other objects closed from a callback close at once, and the rest stay usable", function()
    local g, other, og = H.new_grid(), H.new_grid(), H.new_graph()
    local p = g:find_path(1, 1, W, 1, path_opts({ cost = function(_, _, _, _, c)
      other:close()
      og:close()
      return c
    end }))
    same(REF.grid_path, H.path_digest(p), "the path")
    assert_closed(other, "grid")
    assert_closed(og, "graph")
    usable(g, "grid")
  end)

  if _VERSION == "Lua 5.4" then
    it("a <close> variable in a callback closes the grid being searched when the search ends", function()
      local g = H.new_grid()
      local run = assert(load([[
        local g, opts, window = ...
        local seen
        opts.cost = function(_, _, _, _, c)
          if not seen then
            do local h <close> = g end
            seen = window(g, "grid")
          end
          return c
        end
        return g:find_path(1, 1, 24, 1, opts), seen
      ]]))
      local p, seen = run(g, path_opts(), window)
      same(REF.grid_path, H.path_digest(p), "the path")
      assert.same(closed_window("grid"), seen)
      assert_closed(g, "grid")
    end)

    it("a <close> variable in its own callback cancels a query when the step ends", function()
      local g = H.new_graph()
      local run = assert(load([[
        local g, opts, GOAL = ...
        local q, seen
        opts.cost = function(_, _, c)
          if not seen then
            seen = true
            do local h <close> = q end
          end
          return c
        end
        q = g:query(1, GOAL, opts)
        return q, q:step(10)
      ]]))
      local q, st = run(g, path_opts(), GOAL)
      same(cancelled_story("searching"), query_digest(q, st), "the query")
      usable(g, "graph")
    end)
  end
end)
