-- Methods called with a wrong self: '.' instead of ':', objects of another
-- class, the internal search object, metamethods.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local NONE, U_GRID, U_GRAPH, U_FIELD, new_graph = H.NONE, H.U_GRID, H.U_GRAPH, H.U_FIELD, H.new_graph
local graph_ok, new_grid, grid_ok, new_field = H.graph_ok, H.new_grid, H.grid_ok, H.new_field
local new_dfield, field_ok, sorted_keys = H.new_dfield, H.field_ok, H.sorted_keys

local BAD_SELVES = {
  { label = "no value", v = NONE, d = "no value" },
  { label = "nil", v = nil, d = "nil" },
  { label = "a number", v = 1, d = "number" },
  { label = "a string", v = "astar.Graph", d = "string" },
  { label = "a table", v = {}, d = "table" },
  { label = "a function", v = print, d = "function" },
  { label = "a boolean", v = true, d = "boolean" },
  { label = "a Grid", v = U_GRID, d = "astar.Grid" },
  { label = "a Graph", v = U_GRAPH, d = "astar.Graph" },
  { label = "a Field", v = U_FIELD, d = "astar.Field" },
}

-- Every method listed in a metatable's __index, called through '.' with a
-- wrong self.  Graph:distances and Grid:distances share their C code: each
-- must still check its own type.
describe("hostile self", function()
  local protos = {
    { "Graph", "astar.Graph", new_graph, graph_ok },
    { "Grid", "astar.Grid", new_grid, grid_ok },
    { "Hex", "astar.Hex", H.new_hex, H.hex_ok },
    { "Field", "astar.Field", new_field, field_ok },
    { "Field (distances)", "astar.Field", new_dfield, field_ok },
  }
  for _, P in ipairs(protos) do
    local cls, mt, make, healthy = P[1], P[2], P[3], P[4]
    local proto = make()
    for _, m in ipairs(sorted_keys(getmetatable(proto).__index)) do
      for _, b in ipairs(BAD_SELVES) do
        if b.d ~= mt then
          it(("%s.%s with %s as self"):format(cls, m, b.label), function()
            local o = make()
            local f = o[m]
            local err
            if b.v == NONE then err = error_of(f) else err = error_of(f, b.v, 1, 1) end
            assert.equal(("bad argument #1 to '%s' (%s expected, got %s)"):format(m, mt, b.d), err)
            healthy(o)
          end)
        end
      end
    end
    for _, mm in ipairs({ "__tostring", "__gc", "__close" }) do
      local f = getmetatable(proto)[mm]
      if f then
        it(("%s metamethod %s with a wrong self"):format(cls, mm), function()
          assert.equal(("bad argument #1 to '%s' (%s expected, got number)"):format(mm, mt), error_of(f, 5))
          assert.equal(("bad argument #1 to '%s' (%s expected, got no value)"):format(mm, mt), error_of(f))
        end)
      end
    end
  end

  it("g.find_path(1, 2): '.' instead of ':'", function()
    local g = new_graph()
    assert.equal("bad argument #1 to 'find_path' (astar.Graph expected, got number)",
      error_of(function() g.find_path(1, 2) end))
    graph_ok(g)
  end)

  it("gr.find_path(1, 1, 2, 2) and f.get(1, 1): '.' instead of ':'", function()
    local gr, f = new_grid(), new_field()
    assert.equal("bad argument #1 to 'find_path' (astar.Grid expected, got number)",
      error_of(function() gr.find_path(1, 1, 2, 2) end))
    assert.equal("bad argument #1 to 'get' (astar.Field expected, got number)",
      error_of(function() f.get(1, 1) end))
    grid_ok(gr)
    field_ok(f)
  end)

  it("numbers arguments like Lua's libraries: after self with ':', from self with '.'", function()
    local g = new_graph()
    assert.equal("bad argument #3 to 'add_edge' (cost must be a finite number >= 0, got -1)",
      error_of(function() g:add_edge(1, 2, -1) end))
    assert.equal("bad argument #4 to 'add_edge' (cost must be a finite number >= 0, got -1)",
      error_of(function() g.add_edge(g, 1, 2, -1) end))
    -- through pcall there is no call site: ':' is assumed (README's example)
    assert.equal("bad argument #3 to 'add_edge' (cost must be a finite number >= 0, got -1)",
      error_of(g.add_edge, g, 1, 2, -1))
    local gr = new_grid()
    assert.equal("bad argument #4 to 'find_path' (y must be an integer in 1..4, got 9)",
      error_of(function() gr:find_path(1, 1, 2, 9) end))
    assert.equal("bad argument #5 to 'find_path' (y must be an integer in 1..4, got 9)",
      error_of(function() gr.find_path(gr, 1, 1, 2, 9) end))
    graph_ok(g)
    grid_ok(gr)
  end)

  it("methods of one class refuse objects of another through '.'", function()
    local g, gr, f = new_graph(), new_grid(), new_field()
    assert.equal("bad argument #1 to 'find_path' (astar.Graph expected, got astar.Grid)",
      error_of(g.find_path, gr, 1, 1))
    assert.equal("bad argument #1 to 'find_path' (astar.Grid expected, got astar.Graph)",
      error_of(gr.find_path, g, 1, 1, 2, 2))
    assert.equal("bad argument #1 to 'set_cost' (astar.Grid expected, got astar.Graph)",
      error_of(gr.set_cost, g, 1, 1))
    assert.equal("bad argument #1 to 'size' (astar.Field expected, got astar.Grid)",
      error_of(f.size, gr))
    assert.equal("bad argument #1 to 'size' (astar.Grid expected, got astar.Field)",
      error_of(gr.size, f))
    assert.equal("bad argument #1 to 'close' (astar.Graph expected, got astar.Grid)",
      error_of(g.close, gr))
    assert.equal("bad argument #1 to 'close' (astar.Grid expected, got astar.Graph)",
      error_of(gr.close, g))
    graph_ok(g)
    grid_ok(gr)
    field_ok(f)
  end)

  it("refuses the internal search object wherever an object is expected", function()
    local g = new_graph()
    g:find_path(1, 3)
    local getuv = debug.getuservalue or debug.getfenv
    local uv = getuv(g)
    if type(uv) ~= "table" then uv = debug.getfenv(g) end
    local s = uv.search
    assert.is_userdata(s)
    assert.equal("bad argument #1 to 'find_path' (astar.Graph expected, got astar.Search)",
      error_of(g.find_path, s, 1, 3))
    assert.equal("bad argument #1 to 'size' (astar.Grid expected, got astar.Search)",
      error_of(U_GRID.size, s))
    assert.equal("bad argument #1 to 'field' (astar.Grid or astar.Hex expected, got astar.Search)",
      error_of(astar.field, s))
    assert.equal("bad argument #5 to 'find_path' (penalty must be an astar.Field, got astar.Search)",
      error_of(function() return U_GRID:find_path(1, 1, 2, 2, { penalty = s }) end))
    graph_ok(g)
  end)
end)
