-- Awkward numbers: ids past the end, integral floats, -0.0, huge but finite
-- values, the grid size limits, heuristic weights.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local NEG_ZERO, NAN, HUGE, GW, GH, FW, FH, new_graph = H.NEG_ZERO, H.NAN, H.HUGE, H.GW, H.GH, H.FW, H.FH, H.new_graph
local graph_ok, new_grid, grid_ok, new_field = H.graph_ok, H.new_grid, H.grid_ok, H.new_field
local field_ok, module_ok = H.field_ok, H.module_ok

describe("hostile numbers", function()
  it("ids on an empty graph say there are none", function()
    local g = astar.graph()
    assert.equal("bad argument #1 to 'position' (node 1 does not exist (the graph has no nodes))",
      error_of(function() return g:position(1) end))
    assert.equal("bad argument #1 to 'edge' (edge 1 does not exist (the graph has no edges))",
      error_of(function() return g:edge(1) end))
    assert.equal("bad argument #1 to 'find_path' (node 1 does not exist (the graph has no nodes))",
      error_of(function() return g:find_path(1, 1) end))
    graph_ok(g)
  end)

  it("one past the end, with singular wording", function()
    local g = astar.graph()
    g:add_node(0, 0)
    g:add_edge(1, 1, 0)
    assert.equal("bad argument #2 to 'add_edge' (node 2 does not exist (the graph has 1 node))",
      error_of(function() g:add_edge(1, 2, 1) end))
    assert.equal("bad argument #1 to 'set_cost' (edge 2 does not exist (the graph has 1 edge))",
      error_of(function() g:set_cost(2, 1) end))
    assert.equal("bad argument #1 to 'xy' (cell 21 does not exist (the grid has 20 cells))",
      error_of(function() return new_grid():xy(GW * GH + 1) end))
    graph_ok(g)
  end)

  it("integral floats are integers: 2.0 is node 2, -0.0 is 0", function()
    local g = new_graph()
    assert.same({ 3, 4, 0 }, { g:position(2.0) })
    assert.equal(10, g:find_path(1.0, 3.0).cost)
    local gr = new_grid()
    assert.equal(7, gr:id(2.0, 2.0))
    assert.equal("bad argument #1 to 'position' (node -0 does not exist (the graph has 3 nodes))",
      error_of(function() return g:position(NEG_ZERO) end))
    assert.equal("bad argument #1 to 'id' (x must be an integer in 1..5, got -0)",
      error_of(function() return gr:id(NEG_ZERO, 1) end))
    graph_ok(g)
    grid_ok(gr)
  end)

  it("-0.0 is a valid cost, coordinate, radius and value", function()
    local g = new_graph()
    local n = g:add_node(NEG_ZERO, NEG_ZERO, NEG_ZERO)
    local e = g:add_edge(1, n, NEG_ZERO)
    g:set_cost(e, NEG_ZERO)
    assert.equal(0, g:find_path(1, n).cost)
    local gr = new_grid()
    gr:set_cost(2, 1, NEG_ZERO)
    assert.equal(0, gr:get_cost(2, 1))
    assert.equal(1, gr:visible_from(2, 2, NEG_ZERO):get(2, 2))
    local f = new_field()
    f:set(1, 1, NEG_ZERO)
    f:add_disc(1, 1, NEG_ZERO, 1)
    assert.equal(1, f:get(1, 1))
    assert.equal(0, g:find_path(1, n, { weight = NEG_ZERO }).cost)
    graph_ok(g)
    grid_ok(gr)
    field_ok(f)
  end)

  it("huge but finite costs, coordinates and values are accepted", function()
    local g = astar.graph()
    local a = g:add_node(-1e308, 1e308, 2 ^ 53)
    local b = g:add_node(1e308, -1e308, -2 ^ 63)
    g:add_edge(a, b, 1e308)
    assert.equal(1e308, g:find_path(a, b, { heuristic = "zero" }).cost)
    local gr = new_grid()
    gr:set_cost(3, 3, 1e308)
    assert.equal(1e308, gr:get_cost(3, 3))
    local f = new_field()
    f:set(1, 1, -1e308)
    f:add_disc(2, 2, 1e300, 1)
    assert.equal(1, f:get(FW, FH))
    graph_ok(g)
    grid_ok(gr)
  end)

  it("grid sizes: the largest side, the 2^30 cell limit", function()
    assert.same({ 65535, 1 }, { astar.grid(65535, 1):size() })
    assert.equal("bad argument #2 to 'grid' (grid too large (width * height must be below 2^30))",
      error_of(astar.grid, 32768, 32768))
    assert.equal("bad argument #2 to 'grid' (grid too large (width * height must be below 2^30))",
      error_of(astar.grid, 60000, 60000))
    assert.equal("bad argument #1 to 'grid' (width must be an integer in 1..65535, got 65536)",
      error_of(astar.grid, 65536, 1))
    module_ok()
  end)

  it("heuristic weights: 0, 2^53 and -0.0 are fine; negative, NaN and infinite are not", function()
    local g = new_graph()
    for _, w in ipairs({ 0, 2 ^ 53, NEG_ZERO, 1e-300 }) do
      assert.equal(10, g:find_path(1, 3, { weight = w, stop = "optimal" }).cost)
    end
    for _, c in ipairs({ { -1, "-1" }, { NAN, "nan" }, { HUGE, "inf" }, { -HUGE, "-inf" }, { -1e-300, "-1e-300" } }) do
      assert.equal("bad argument #3 to 'find_path' (weight must be a finite number >= 0, got " .. c[2] .. ")",
        error_of(function() return g:find_path(1, 3, { weight = c[1] }) end))
    end
    graph_ok(g)
  end)

  -- A path is an ordinary table its owner may change: xy is built from
  -- path.width and path.nodes, and values that are not cells are refused
  -- (converting them to integers was undefined behaviour).
  it("path.xy refuses a width or a node that is not a cell", function()
    local g = astar.grid(4, 4)
    local widths = { { 1e300, "1e+300" }, { NAN, "nan" }, { -1, "-1" }, { 2.5, "2.5" },
                     { HUGE, "inf" }, { 65536, "65536" }, { "4", '"4"' }, { true, "true" } }
    for _, c in ipairs(widths) do
      local p = g:find_path(1, 1, 4, 4)
      p.width = c[1]
      assert.equal("cannot build path.xy: path.width must be an integer in 1..65535, got " .. c[2],
        error_of(function() return p.xy end))
    end
    local nodes = { { NAN, "nan" }, { 1e300, "1e+300" }, { -2 ^ 63, "-9.2233720368548e+18" }, { 0, "0" },
                    { 1.5, "1.5" }, { 2 ^ 30 + 1, "1073741825" }, { "2", '"2"' }, { {}, "table" } }
    if math.mininteger then nodes[#nodes + 1] = { math.mininteger, tostring(math.mininteger) } end
    for _, c in ipairs(nodes) do
      local p = g:find_path(1, 1, 4, 4)
      p.nodes[2] = c[1]
      assert.equal("cannot build path.xy: path.nodes[2] must be a cell id, got " .. c[2],
        error_of(function() return p.xy end))
    end
    -- a path without width or nodes has no xy, as any table
    local p = g:find_path(1, 1, 4, 4)
    p.width = nil
    assert.is_nil(p.xy)
    p = g:find_path(1, 1, 4, 4)
    p.nodes[2] = 6 -- still a cell: converted
    assert.same({ 2, 2 }, p.xy[2])
    grid_ok(g)
  end)

  it("integers print as integers, and bounds are stated", function()
    local g = new_graph()
    local big = math.maxinteger or 2 ^ 63
    local big_text = math.maxinteger and tostring(math.maxinteger) or "9.2233720368548e+18"
    assert.equal("bad argument #3 to 'find_path' (max_expansions must be an integer in 1..2^53, got "
      .. big_text .. ")", error_of(function() return g:find_path(1, 3, { max_expansions = big }) end))
    assert.equal("bad argument #3 to 'find_path' (max_expansions must be an integer in 1..2^53, got "
      .. "9007199254740994)", error_of(function() return g:find_path(1, 3, { max_expansions = 2 ^ 53 + 2 }) end))
    assert.equal(10, g:find_path(1, 3, { max_expansions = 2 ^ 53 }).cost)
    assert.equal("bad argument #1 to 'position' (node 4294967296 does not exist (the graph has 3 nodes))",
      error_of(function() return g:position(2 ^ 32) end))
    if math.mininteger then
      assert.equal("bad argument #1 to 'position' (node " .. tostring(math.mininteger)
        .. " does not exist (the graph has 3 nodes))", error_of(function() return g:position(math.mininteger) end))
    end
    graph_ok(g)
  end)
end)
