-- graph:path_valid against a rule written here: the answer is the first
-- entry i >= from_index whose node is disabled, or (i > from_index) that
-- is entered by an edge whose tag the costs forbid (factor false); the
-- binding asks the core (astar_graph_step_fault) for each step, so a
-- forbidding tag means the same to path_valid as to find_path.
-- Fixed-seed generator (helpers.rng).
local astar = require("astar")
local helpers = require("helpers")
local rng = helpers.rng

local TAGS = { "door", "mud", "ice" }

-- The expected answer, from the path's own edges and the graph's getters.
local function expected(g, p, from, costs, tag_of)
  for i = from, #p.nodes do
    if not g:is_enabled(p.nodes[i]) then return false, i end
    if i > from then
      local t = tag_of[p.edges[i - 1]]
      if t and costs and costs[t] == false then return false, i end
    end
  end
  return true
end

describe("graph:path_valid", function()
  it("a tag the costs forbid (false) closes the edges so tagged, as find_path sees them", function()
    local g = astar.graph()
    for i = 1, 4 do g:add_node(i, 0) end
    g:add_edge(1, 2, 1)
    g:add_edge(2, 3, 1, "mud")
    g:add_edge(3, 4, 1, "door")
    local p = assert(g:find_path(1, 4))
    assert.is_true(g:path_valid(p))
    assert.is_true(g:path_valid(p, 1, { costs = { door = 3, mud = 0.5 } }))
    local ok, at = g:path_valid(p, 1, { costs = { door = false } })
    assert.is_false(ok)
    assert.equal(4, at)
    ok, at = g:path_valid(p, 1, { costs = { mud = false, door = false } })
    assert.is_false(ok)
    assert.equal(3, at)
    -- from the node the forbidden edge enters on: no edge is walked
    assert.is_true(g:path_valid(p, 4, { costs = { door = false } }))
    assert.is_true(g:path_valid(p, 3, { costs = { mud = false } }))
    -- the search agrees: the only route is closed
    local none, why = g:find_path(1, 4, { costs = { door = false } })
    assert.is_nil(none)
    assert.equal("unreachable", why)
    -- a disabled node at the same index gives the same index
    g:set_enabled(3, false)
    ok, at = g:path_valid(p, 1, { costs = { mud = false } })
    assert.is_false(ok)
    assert.equal(3, at)
    ok, at = g:path_valid(p, 1, {})
    assert.is_false(ok)
    assert.equal(3, at)
  end)

  it("takes no forbid or penalty field (graphs close nodes with set_enabled)", function()
    local g = astar.graph()
    g:add_node(0, 0)
    local ok, err = pcall(g.path_valid, g, { nodes = { 1 } }, 1, { forbid = {} })
    assert.is_false(ok)
    assert.truthy(err:find('option "forbid" is only for grids', 1, true))
  end)

  it("answers as the rule over random graphs, tags, factors, disabled nodes and start entries", function()
    local checked, closed = 0, 0
    for seed = 1, 40 do
      local r = rng(seed)
      local g = astar.graph()
      local n = r(6, 24)
      for _ = 1, n do g:add_node(r(0, 20), r(0, 20)) end
      local tag_of = {}
      for a = 1, n do -- a ring, and chords
        local e = g:add_edge(a, a % n + 1, r(1, 5), r(0, 3) > 0 and TAGS[r(1, 3)] or nil)
        tag_of[e] = select(4, g:edge(e))
        for _ = 1, r(0, 2) do
          local b = r(1, n)
          if b ~= a then
            e = g:add_edge(a, b, r(1, 9), r(0, 1) > 0 and TAGS[r(1, 3)] or nil)
            tag_of[e] = select(4, g:edge(e))
          end
        end
      end
      local p = g:find_path(1, r(2, n))
      if p then
        for _ = 1, 6 do
          local costs = {}
          for _, t in ipairs(TAGS) do
            local k = r(0, 3)
            if k == 0 then costs[t] = false elseif k == 1 then costs[t] = r(1, 4) end
          end
          if r(0, 2) == 0 then g:set_enabled(r(1, n), false) end
          local from = r(1, #p.nodes)
          local want_ok, want_at = expected(g, p, from, costs, tag_of)
          local ok, at = g:path_valid(p, from, { costs = costs })
          assert.equal(want_ok, ok, "seed " .. seed)
          assert.equal(want_at, at, "seed " .. seed)
          checked = checked + 1
          if not ok then closed = closed + 1 end
        end
      end
    end
    assert.is_true(checked >= 100 and closed >= 20, checked .. " checks, " .. closed .. " closed")
  end)
end)
