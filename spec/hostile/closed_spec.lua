-- Closed graphs and grids: every method refuses them, close is idempotent,
-- <close> variables close them.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local U_GRID, new_graph, new_grid, sorted_keys = H.U_GRID, H.new_graph, H.new_grid, H.sorted_keys

describe("hostile closed objects", function()
  local protos = {
    { "graph", new_graph, "astar.Graph (closed)" },
    { "grid", new_grid, "astar.Grid (closed)" },
    { "hex grid", H.new_hex, "astar.Hex (closed)" },
  }
  for _, P in ipairs(protos) do
    local what, make, closed_str = P[1], P[2], P[3]
    for _, m in ipairs(sorted_keys(getmetatable(make()).__index)) do
      if m ~= "close" then
        it(("%s:%s on a closed %s"):format(what, m, what), function()
          local o = make()
          o:close()
          assert.equal("attempt to use a closed " .. what, error_of(o[m], o))
          assert.equal("attempt to use a closed " .. what, error_of(o[m], o, 1, 1, 1, 1, {}))
          assert.equal(closed_str, tostring(o))
        end)
      end
    end

    it(what .. ": close is idempotent, returns nothing, and tostring works", function()
      local o = make()
      assert.equal(0, select("#", o:close()))
      assert.equal(0, select("#", o:close()))
      getmetatable(o).__gc(o)
      assert.equal(closed_str, tostring(o))
      collectgarbage()
    end)
  end

  it("a closed grid cannot make fields, a closed object of the wrong type is still refused by type", function()
    local gr, g = new_grid(), new_graph()
    gr:close()
    g:close()
    assert.equal("attempt to use a closed grid", error_of(astar.field, gr))
    assert.equal("bad argument #1 to 'find_path' (astar.Grid expected, got astar.Graph)",
      error_of(gr.find_path, g, 1, 1, 1, 1))
    assert.equal("bad argument #5 to 'find_path' (penalty must be an astar.Field, got astar.Grid)",
      error_of(function() return U_GRID:find_path(1, 1, 2, 2, { penalty = gr }) end))
  end)

  if _VERSION == "Lua 5.4" then
    it("<close> variables close graphs and grids, also on error", function()
      local run = assert(load([[
        local astar = ...
        local g1, g2, g3
        do
          local g <close> = astar.graph()
          local gr <close> = astar.grid(2, 2)
          g1, g2 = g, gr
          assert(gr:find_path(1, 1, 2, 2))
        end
        local ok = pcall(function()
          local h <close> = astar.graph()
          g3 = h
          error("boom")
        end)
        assert(not ok)
        return g1, g2, g3
      ]]))
      local g1, g2, g3 = run(astar)
      assert.equal("astar.Graph (closed)", tostring(g1))
      assert.equal("astar.Grid (closed)", tostring(g2))
      assert.equal("astar.Graph (closed)", tostring(g3))
      assert.equal("attempt to use a closed graph", error_of(g1.node_count, g1))
      assert.equal("attempt to use a closed grid", error_of(g2.size, g2))
      g1:close() -- still idempotent
    end)
  end
end)
