-- Re-entrancy: nested searches from callbacks, and the search lock that
-- refuses changes to the graph or grid being searched.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local chain, chain_ok, corridor, corridor_ok = H.chain, H.chain_ok, H.corridor, H.corridor_ok
local graph_snapshot, grid_snapshot, grid_ok = H.graph_snapshot, H.grid_snapshot, H.grid_ok

describe("hostile re-entrancy", function()
  it("nested read-only searches on the same graph, three deep", function()
    local g = chain()
    local depth, max_depth = 0, 0
    local function h(n, goal)
      depth = depth + 1
      if depth > max_depth then max_depth = depth end
      local c
      if depth < 3 then
        c = g:find_path(n, goal, { heuristic = h }).cost
      else
        c = g:find_path(n, goal).cost
      end
      depth = depth - 1
      return c
    end
    local p = assert(g:find_path(1, 3, { heuristic = h, trace = true }))
    assert.equal(2, p.cost)
    assert.equal(3, max_depth)
    chain_ok(g)
  end)

  it("nested searches on the same grid from both callbacks", function()
    local g = astar.grid(6, 6)
    g:set_blocked(3, 2, true); g:set_blocked(3, 3, true); g:set_blocked(3, 4, true)
    local direct = g:find_path(1, 3, 6, 3).cost
    local p = assert(g:find_path(1, 3, 6, 3, {
      heuristic = function(x, y, gx, gy) return g:find_path(x, y, gx, gy).cost end,
      cost = function(x1, y1, x2, y2, c)
        assert.is_true(g:find_path(x1, y1, x2, y2, { heuristic = "zero" }).cost <= c + 1e-12)
        return c
      end,
    }))
    assert.equal(direct, p.cost)
    grid_ok(g)
  end)

  it("an error in a nested search reaches the outer caller, and both unlock", function()
    local g = chain()
    local err = error_of(function()
      return g:find_path(1, 3, { heuristic = function(n, goal)
        return g:find_path(n, goal, { cost = function() error("inner", 0) end }).cost
      end })
    end)
    assert.equal("inner", err)
    chain_ok(g)
  end)

  it("an error in a nested search caught by the callback leaves the outer search running", function()
    local g = chain()
    local caught = 0
    local p = assert(g:find_path(1, 3, { heuristic = function(n, goal)
      local ok = pcall(g.find_path, g, n, goal, { heuristic = function() error("x") end })
      if not ok then caught = caught + 1 end
      return 0
    end }))
    assert.equal(2, p.cost)
    assert.is_true(caught >= 1)
    chain_ok(g)
  end)

  local graph_mutators = {
    { "add_node", function(g) g:add_node(0, 0) end },
    { "add_edge", function(g) g:add_edge(1, 2, 1) end },
    { "add_edge", function(g) g:add_edge(1, 2, 1, "tag") end },
    { "connect", function(g) g:connect(1, 2, 1) end },
    { "set_cost", function(g) g:set_cost(1, 9) end },
    { "set_enabled", function(g) g:set_enabled(2, false) end },
  }
  for _, which in ipairs({ "heuristic", "cost" }) do
    for _, m in ipairs(graph_mutators) do
      it(("a graph %s callback calling %s"):format(which, m[1]), function()
        local g = chain()
        local before = graph_snapshot(g)
        assert.equal(("cannot call '%s': graph is being searched"):format(m[1]),
          error_of(function() return g:find_path(1, 3, { [which] = function(...)
            m[2](g)
            return which == "cost" and select(3, ...) or 0
          end }) end))
        assert.equal(before, graph_snapshot(g))
        chain_ok(g)
      end)
    end
    it(("a graph %s callback calling close: the search ends, then the graph closes"):format(which), function()
      local g = chain()
      local inside
      local p = assert(g:find_path(1, 3, { [which] = function(...)
        g:close()
        inside = error_of(g.node_count, g)
        return which == "cost" and select(3, ...) or 0
      end }))
      assert.equal(2, p.cost)
      assert.same({ 1, 2, 3 }, p.nodes)
      assert.equal("attempt to use a closed graph", inside)
      assert.equal("astar.Graph (closed)", tostring(g))
      assert.equal("attempt to use a closed graph", error_of(g.find_path, g, 1, 3))
    end)
  end

  local grid_mutators = {
    { "set_blocked", function(g) g:set_blocked(2, 1, true) end },
    { "set_cost", function(g) g:set_cost(2, 1, 5) end },
    { "set_tag", function(g) g:set_tag(2, 1, "mud") end },
    { "set_tag", function(g) g:set_tag(2, 1, nil) end },
  }
  for _, which in ipairs({ "heuristic", "cost" }) do
    for _, m in ipairs(grid_mutators) do
      it(("a grid %s callback calling %s"):format(which, m[1]), function()
        local g = corridor()
        local before = grid_snapshot(g)
        assert.equal(("cannot call '%s': grid is being searched"):format(m[1]),
          error_of(function() return g:find_path(1, 1, 3, 1, { [which] = function(...)
            m[2](g)
            return which == "cost" and select(5, ...) or 0
          end }) end))
        assert.equal(before, grid_snapshot(g))
        corridor_ok(g)
      end)
    end
    it(("a grid %s callback calling close: the search ends, then the grid closes"):format(which), function()
      local g = corridor()
      local inside
      local p = assert(g:find_path(1, 1, 3, 1, { [which] = function(...)
        g:close()
        inside = error_of(g.size, g)
        return which == "cost" and select(5, ...) or 0
      end }))
      assert.equal(2, p.cost)
      assert.equal("attempt to use a closed grid", inside)
      assert.equal("astar.Grid (closed)", tostring(g))
      assert.equal("attempt to use a closed grid", error_of(g.find_path, g, 1, 1, 3, 1))
    end)
  end

  it("the lock holds in a nested search and in a coroutine started by a callback", function()
    local g = chain()
    local msgs = {}
    local p = assert(g:find_path(1, 3, { heuristic = function(n, goal)
      g:find_path(n, goal, { heuristic = function()
        msgs[#msgs + 1] = error_of(function() g:add_node(0, 0) end)
        return 0
      end })
      local co = coroutine.create(function() g:set_cost(1, 3) end)
      local ok, err = coroutine.resume(co)
      assert.is_false(ok)
      msgs[#msgs + 1] = (err:gsub("^[^\n]-:%d+: ", "", 1))
      return 0
    end }))
    assert.equal(2, p.cost)
    for _, m in ipairs(msgs) do
      assert.is_true(m == "cannot call 'add_node': graph is being searched"
        or m == "cannot call 'set_cost': graph is being searched", m)
    end
    assert.is_true(#msgs >= 2)
    chain_ok(g)
  end)

  it("a refused mutation caught inside the callback lets the search finish", function()
    local g = chain()
    local refused = 0
    local p = assert(g:find_path(1, 3, { cost = function(_, _, c)
      if not pcall(g.set_enabled, g, 2, false) then refused = refused + 1 end
      return c
    end }))
    assert.equal(2, p.cost)
    assert.is_true(refused >= 1)
    assert.is_true(g:is_enabled(2))
    chain_ok(g)
  end)

  it("read-only methods work during a search", function()
    local g, gr = chain(), astar.grid(4, 4)
    local ran = false
    assert(g:find_path(1, 3, { heuristic = function()
      assert.equal(3, g:node_count())
      assert.equal(3, g:edge_count())
      assert.same({ 1, 0, 0 }, { g:position(1) })
      assert.same({ 1, 3, 5, "shortcut" }, { g:edge(3) })
      assert.is_true(g:is_enabled(2))
      assert.equal("astar.Graph (3 nodes, 3 edges)", tostring(g))
      return 0
    end }))
    assert(gr:find_path(1, 1, 4, 4, { heuristic = function(x, y)
      assert.is_false(gr:is_blocked(x, y))
      assert.equal(1, gr:get_cost(x, y))
      assert.is_nil(gr:get_tag(x, y))
      assert.same({ x, y }, { gr:xy(gr:id(x, y)) })
      assert.same({ 4, 4 }, { gr:size() })
      assert.equal("no_corner_cutting", gr:diagonal())
      assert.is_true(gr:line_of_sight(x, y, 4, 4))
      assert.equal(1, gr:visible_from(x, y):get(4, 4))
      assert.is_string(gr:to_string())
      assert.is_true(gr:memory() > 0)
      assert.equal(0, astar.field(gr):get(x, y))
      ran = true
      return 0
    end }))
    assert.is_true(ran)
    chain_ok(g)
    grid_ok(gr)
  end)

  it("other graphs and grids may be changed and closed from a callback", function()
    local g, other, og = chain(), chain(), astar.grid(3, 3)
    local p = assert(g:find_path(1, 3, { heuristic = function()
      other:add_node(0, 0)
      og:set_blocked(2, 2, true)
      return 0
    end }))
    assert.equal(2, p.cost)
    assert.equal(2, g:find_path(1, 3, { cost = function(_, _, c) other:close() og:close() return c end }).cost)
    assert.equal("astar.Graph (closed)", tostring(other))
    assert.equal("astar.Grid (closed)", tostring(og))
    chain_ok(g)
  end)

  if _VERSION == "Lua 5.4" then
    it("a <close> variable in a callback closes the graph when the search ends", function()
      local g = chain()
      local run = assert(load([[
        local g = ...
        return g:find_path(1, 3, { heuristic = function()
          local h <close> = g
          return 0
        end })
      ]]))
      assert.equal(2, run(g).cost)
      assert.equal("astar.Graph (closed)", tostring(g))
    end)
  end
end)
