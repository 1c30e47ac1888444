-- distances() options and sources, and next_step on fields that cannot
-- answer it.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local NAN, HUGE, U_GRID, U_FIELD, new_graph = H.NAN, H.HUGE, H.U_GRID, H.U_FIELD, H.new_graph
local graph_snapshot, graph_ok, new_grid, grid_snapshot = H.graph_snapshot, H.graph_ok, H.new_grid, H.grid_snapshot
local grid_ok, label_of = H.grid_ok, H.label_of

describe("hostile distances options", function()
  local topo = {
    { "graph", new_graph, function(g, o) return g:distances({ 1 }, o) end, graph_snapshot, graph_ok },
    { "grid", new_grid, function(g, o) return g:distances({ { 1, 1 } }, o) end, grid_snapshot, grid_ok },
  }
  local cases = {
    { "direction", "x", 'direction must be "from_sources" or "to_sources", got "x"' },
    { "direction", 1, 'direction must be "from_sources" or "to_sources", got 1' },
    { "direction", true, 'direction must be "from_sources" or "to_sources", got true' },
    { "direction", "from_sources" },
    { "max_cost", -1, "max_cost must be a number >= 0, got -1" },
    { "max_cost", 3 },
    { "costs", 2, "costs must be a table, got 2" },
    { "costs", { door = false } },
    { "cost", 3, "cost must be a function, got 3" },
    { "bogus", 1, 'unknown option "bogus"' },
    { 1, 1, "unknown option 1" },
  }
  for _, k in ipairs({ "heuristic", "weight", "stop", "tie_break", "trace", "visited", "max_expansions", "partial" }) do
    cases[#cases + 1] = { k, 1, ('option "%s" does not apply to distances'):format(k) }
  end
  for _, T in ipairs(topo) do
    local kind, make, query, snap, healthy = T[1], T[2], T[3], T[4], T[5]
    for _, c in ipairs(cases) do
      it(("%s: %s = %s"):format(kind, label_of(c[1]), label_of(c[2])), function()
        local g = make()
        local before = snap(g)
        if c[3] then
          assert.equal("bad argument #2 to 'distances' (" .. c[3] .. ")",
            error_of(function() return query(g, { [c[1]] = c[2] }) end))
          assert.equal(before, snap(g))
        else
          assert.is_not_nil(query(g, { [c[1]] = c[2] }))
        end
        healthy(g)
      end)
    end
    it(kind .. ": grid-only options", function()
      local g = make()
      if kind == "graph" then
        assert.equal("bad argument #2 to 'distances' (option \"penalty\" is only for grids)",
          error_of(function() return query(g, { penalty = U_FIELD }) end))
      else
        assert.equal("bad argument #2 to 'distances' (penalty must be an astar.Field, got 3)",
          error_of(function() return query(g, { penalty = 3 }) end))
        assert.is_userdata(query(g, { penalty = astar.field(g), forbid = astar.field(g), penalty_scale = 2 }))
      end
      healthy(g)
    end)
  end

  it("bad sources", function()
    local g, gr = new_graph(), new_grid()
    local bad = {
      { g, { "1" }, 'sources[1] must be a node id in 1..3, got "1"' },
      { g, { 1.5 }, "sources[1] must be a node id in 1..3, got 1.5" },
      { g, { 0 }, "sources[1] must be a node id in 1..3, got 0" },
      { g, { 1, 4 }, "sources[2] must be a node id in 1..3, got 4" },
      { g, { NAN }, "sources[1] must be a node id in 1..3, got nan" },
      { g, { [2] = 1 }, "sources must be a non-empty list" },
      { gr, { 1 }, "sources[1] must be a cell {x, y} inside the 5x4 grid, got 1" },
      { gr, { { 1 } }, "sources[1] must be a cell {x, y} inside the 5x4 grid, got table" },
      { gr, { { 1, 1 }, { 6, 1 } }, "sources[2] must be a cell {x, y} inside the 5x4 grid, got table" },
      { gr, { { "1", 1 } }, "sources[1] must be a cell {x, y} inside the 5x4 grid, got table" },
      { gr, { U_GRID }, "sources[1] must be a cell {x, y} inside the 5x4 grid, got astar.Grid" },
    }
    for _, c in ipairs(bad) do
      assert.equal("bad argument #1 to 'distances' (" .. c[3] .. ")", error_of(c[1].distances, c[1], c[2]))
    end
    graph_ok(g)
    grid_ok(gr)
  end)

  it("next_step on a plain field, at a source, on an unreachable cell", function()
    local gr = astar.grid(3, 3)
    gr:set_blocked(2, 1, true); gr:set_blocked(2, 2, true); gr:set_blocked(2, 3, true)
    local d = gr:distances({ { 3, 1 } })
    assert.equal(HUGE, d:get(1, 1))
    assert.equal(0, select("#", d:next_step(1, 1)))
    assert.equal(0, select("#", d:next_step(3, 1)))
    assert.same({ 3, 1 }, { d:next_step(3, 2) })
    assert.equal("next_step needs a field made by grid:distances",
      error_of(function() return astar.field(gr):next_step(1, 1) end))
  end)
end)
