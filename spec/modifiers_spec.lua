-- Per-query cost modifiers: tag factors, forbidden tags, the cost callback.
-- They change one query; the graph and the next query are untouched.
local astar = require("astar")

-- Two routes from 1 to 4: through a door (cost 2) or around (cost 3).  The
-- nodes share one position, so the default (Euclidean) heuristic is 0 and
-- only the costs decide.
local function level()
  local g = astar.graph()
  for _ = 1, 4 do g:add_node(0, 0) end
  local door = g:add_edge(1, 2, 1, "door")
  g:add_edge(2, 4, 1)
  g:add_edge(1, 3, 1.5, "grass")
  g:add_edge(3, 4, 1.5, "grass")
  return g, door
end

describe("per-query modifiers", function()
  it("tag factors multiply the cost of tagged edges", function()
    local g = level()
    assert.same({ 1, 2, 4 }, g:find_path(1, 4).nodes)
    local p = assert(g:find_path(1, 4, { costs = { door = 4 } }))
    assert.same({ 1, 3, 4 }, p.nodes)
    assert.equal(3, p.cost)
    p = assert(g:find_path(1, 4, { costs = { door = 4, grass = 2 } }))
    assert.same({ 1, 2, 4 }, p.nodes)
    assert.equal(5, p.cost) -- 1 * 4 + 1: the cost this query used
    p = assert(g:find_path(1, 4, { costs = { grass = 0 } }))
    assert.equal(0, p.cost)
  end)

  it("false forbids a tag", function()
    local g = level()
    assert.same({ 1, 3, 4 }, g:find_path(1, 4, { costs = { door = false } }).nodes)
    local p, why = g:find_path(1, 4, { costs = { door = false, grass = false } })
    assert.is_nil(p)
    assert.equal("unreachable", why)
  end)

  it("ignores tags the graph does not have", function()
    local g = level()
    assert.equal(2, g:find_path(1, 4, { costs = { lava = false, water = 3 } }).cost)
  end)

  it("leave the graph and the next query unaffected", function()
    local g, door = level()
    g:find_path(1, 4, { costs = { door = false } })
    g:find_path(1, 4, { cost = function() return 100 end })
    local p = assert(g:find_path(1, 4))
    assert.same({ 1, 2, 4 }, p.nodes)
    assert.equal(2, p.cost)
    assert.equal(1, select(3, g:edge(door)))
    assert.equal("door", select(4, g:edge(door)))
  end)

  it("combine: tag factors first, then the callback", function()
    local g = level()
    local p = assert(g:find_path(1, 4, {
      costs = { grass = 0.5 },
      cost = function(from, _, c) return from == 1 and c + 1 or c end,
    }))
    -- door route: (1 + 1) + 1 = 3; grass route: (0.75 + 1) + 0.75 = 2.5
    assert.same({ 1, 3, 4 }, p.nodes)
    assert.equal(2.5, p.cost)
  end)

  it("a tag added after the first query is picked up", function()
    local g = level()
    g:find_path(1, 4, { costs = { lava = false } })
    local e = g:add_edge(1, 4, 0.1, "lava")
    assert.same({ e }, g:find_path(1, 4).edges)
    assert.same({ 1, 2, 4 }, g:find_path(1, 4, { costs = { lava = false } }).nodes)
  end)
end)

-- A step cost that comes out infinite is an error, blamed on what made it
-- so: the tag factor, the penalty, the cell cost times a diagonal, or the
-- sum along the path.
describe("costs too large", function()
  local error_of = require("helpers").error_of

  it("a tag factor that overflows an edge cost", function()
    local g = astar.graph()
    g:add_node(0, 0)
    g:add_node(1, 0)
    g:add_edge(1, 2, 1e300, "door")
    assert.equal("edge 1 would cost inf (tag factors must keep edge costs finite)",
      error_of(g.find_path, g, 1, 2, { costs = { door = 1e10 } }))
    assert.equal(1e300, g:find_path(1, 2).cost)
  end)

  it("a tag factor that overflows a step into a cell, with no penalty given #pure", function()
    local g = astar.grid(3, 1)
    g:set_cost(2, 1, 1e300)
    g:set_tag(2, 1, "mud")
    assert.equal("entering cell (2, 1) would cost inf (tag factors must keep step costs finite)",
      error_of(g.find_path, g, 1, 1, 3, 1, { costs = { mud = 1e10 } }))
  end)

  it("a cell cost that overflows a diagonal step #pure", function()
    local g = astar.grid(2, 2)
    g:set_cost(2, 2, 1.5e308)
    assert.equal("entering cell (2, 2) would cost inf (cell costs must keep step costs finite)",
      error_of(g.find_path, g, 1, 1, 2, 2))
  end)

  it("a sum that overflows", function()
    local g = astar.grid(3, 1)
    g:set_cost(2, 1, 1e308)
    g:set_cost(3, 1, 1e308)
    assert.equal("the cost of reaching cell (3, 1) overflows (costs too large)",
      error_of(g.find_path, g, 1, 1, 3, 1))
    local gr = astar.graph()
    for i = 1, 3 do gr:add_node(i, 0) end
    gr:add_edge(1, 2, 1e308)
    gr:add_edge(2, 3, 1e308)
    assert.equal("the cost of reaching node 3 overflows (costs too large)", error_of(gr.find_path, gr, 1, 3))
  end)
end)
