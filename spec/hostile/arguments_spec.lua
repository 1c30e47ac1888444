-- Every public function and method with every kind of wrong value at every
-- argument position: the exact error message, then the object unchanged
-- (for a refused call) and still answering a normal query.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local unpack, caller, NONE, NAN, U_GRID, U_FIELD = H.unpack, H.caller, H.NONE, H.NAN, H.U_GRID, H.U_FIELD
local VALUES, absent, is_num, finite, is_int = H.VALUES, H.absent, H.is_num, H.finite, H.is_int
local GW, GH, FW, FH, new_graph, graph_snapshot = H.GW, H.GH, H.FW, H.FH, H.new_graph, H.graph_snapshot
local graph_ok, new_grid, grid_snapshot, grid_ok = H.graph_ok, H.new_grid, H.grid_snapshot, H.grid_ok
local new_field, new_dfield, field_snapshot = H.new_field, H.new_dfield, H.field_snapshot
local field_ok, module_ok, sorted_keys = H.field_ok, H.module_ok, H.sorted_keys
local new_hex, hex_snapshot, hex_ok = H.new_hex, H.hex_snapshot, H.hex_ok

-- Argument kinds: each maps a value to the message the binding must raise,
-- or nil when the value is accepted.
local K = {}
function K.finite(name, optional)
  return function(e)
    if optional and absent(e) then return nil end
    if not is_num(e) then return "number expected, got " .. e.t end
    if not finite(e.v) then return name .. " must be a finite number, got " .. e.d end
  end
end
function K.cost(name, optional)
  return function(e)
    if optional and absent(e) then return nil end
    if not is_num(e) then return "number expected, got " .. e.t end
    if e.v ~= e.v or e.v < 0 or not finite(e.v) then
      return name .. " must be a finite number >= 0, got " .. e.d
    end
  end
end
local MISSING = {} -- kinds whose absent case has its own block (see below)
function K.id(what, count, owner)
  local kind
  kind = function(e)
    if not is_num(e) then return what .. " id expected, got " .. e.t end
    if not is_int(e.v) then return what .. " id must be an integer, got " .. e.d end
    if e.v < 1 or e.v > count then
      return ("%s %s does not exist (the %s has %d %s%s)"):format(what, e.d, owner, count, what,
        count == 1 and "" or "s")
    end
  end
  MISSING[kind] = true
  return kind
end
-- distances' list of sources
function K.sources(e)
  if e.v == NONE or type(e.v) ~= "table" then
    return "table (a list of sources) expected, got " .. e.t
  end
  if next(e.v) == nil then return "sources must be a non-empty list" end
end
MISSING[K.sources] = true
-- would_disconnect's list of cells or nodes (may be empty)
function K.list(what)
  return function(e)
    if e.v == NONE or type(e.v) ~= "table" then
      return ("table (a list of %s) expected, got %s"):format(what, e.t)
    end
  end
end
-- find_nearest's goals, flee's threats
function K.nonempty_list(what)
  local kind = function(e)
    if e.v == NONE or type(e.v) ~= "table" then
      return ("table (a list of %s) expected, got %s"):format(what, e.t)
    end
    if next(e.v) == nil then return what .. " must be a non-empty list" end
  end
  MISSING[kind] = true
  return kind
end
-- astar.batch's topology and list of requests
function K.topo(e)
  if e.d == "astar.Grid" or e.d == "astar.Graph" or e.d == "astar.Hex" then return nil end
  return "astar.Graph, astar.Grid or astar.Hex expected, got " .. e.t
end
function K.requests(e)
  if e.v == NONE or type(e.v) ~= "table" then
    return "table (a list of requests) expected, got " .. e.t
  end
end
-- a unit size (line_of_sight's optional last argument)
function K.size(e)
  if absent(e) then return nil end
  if not is_num(e) or not is_int(e.v) or e.v < 1 or e.v > 255 then
    return "size must be an integer in 1..255, got " .. e.d
  end
end
function K.range(name, lo, hi)
  return function(e)
    if not is_num(e) then return "number expected, got " .. e.t end
    if not is_int(e.v) or e.v < lo or e.v > hi then
      return ("%s must be an integer in %d..%d, got %s"):format(name, lo, hi, e.d)
    end
  end
end
-- a bound that may be infinite (nearest_open's max_radius)
function K.bound(name)
  return function(e)
    if absent(e) then return nil end
    if not is_num(e) then return "number expected, got " .. e.t end
    if e.v ~= e.v or e.v < 0 then return name .. " must be a number >= 0, got " .. e.d end
  end
end
function K.bool(e)
  if e.v == NONE or type(e.v) ~= "boolean" then return "boolean expected, got " .. e.t end
end
function K.tag(e)
  if absent(e) then return nil end
  if type(e.v) ~= "string" then return "string (tag name) expected, got " .. e.t end
end
function K.opts(e)
  if absent(e) then return nil end
  if type(e.v) ~= "table" then return "table expected, got " .. e.t end
end
function K.path(e)
  if absent(e) then return nil end
  if type(e.v) ~= "table" then return "table (a path or a list of cell ids) expected, got " .. e.t end
end
function K.ud(mt)
  return function(e)
    if e.v == NONE or type(e.v) ~= "userdata" then return mt .. " expected, got " .. e.t end
    if e.d ~= mt then return mt .. " expected, got " .. e.d end
  end
end
function K.cells(e) -- astar.field's topology: a square or a hex grid
  local mt = "astar.Grid or astar.Hex"
  if e.v == NONE or type(e.v) ~= "userdata" then return mt .. " expected, got " .. e.t end
  if e.d ~= "astar.Grid" and e.d ~= "astar.Hex" then return mt .. " expected, got " .. e.d end
end
function K.smooth_path(e) -- grid:smooth's path: a table with nodes
  if e.v == NONE or type(e.v) ~= "table" then return "table (a path) expected, got " .. e.t end
  if e.v.nodes == nil then return "path.nodes must be a list of cell ids, got nil" end
end
function K.valid_path(what) -- path_valid's path: a table with nodes
  return function(e)
    if e.v == NONE or type(e.v) ~= "table" then return "table (a path) expected, got " .. e.t end
    if e.v.nodes == nil then return "path.nodes must be a list of " .. what .. " ids, got nil" end
  end
end
function K.optional(kind) -- kind, or absent
  return function(e)
    if absent(e) then return nil end
    return kind(e)
  end
end
function K.cell_list(e) -- set_blocked_cells' list of {x, y}
  if e.v == NONE or type(e.v) ~= "table" then return "table (a list of cells) expected, got " .. e.t end
end
function K.rows(e) -- grid_from_table's rows
  local got = e.v == NONE and "no value" or (type(e.v) == "table" and "an empty table" or e.d)
  return "rows must be a non-empty list of rows, got " .. got
end
function K.legend(e) -- grid_from_table's legend: a table or nothing
  if absent(e) or type(e.v) == "table" then return nil end
  return "legend must be a table, got " .. e.d
end
function K.text(e) -- grid_from_string's map text
  if e.v == NONE or type(e.v) ~= "string" then return "string expected, got " .. e.t end
  if e.v == "" then return "no rows in the map" end
  return ("unknown character '%s' at row 1, column 1 (add it to the legend)"):format(e.v:sub(1, 1))
end

-- Signatures: per function, the kind and a valid value of each argument
-- after self.
local NODE = K.id("node", 3, "graph")
local EDGE = K.id("edge", 2, "graph")
local GX, GY = K.range("x", 1, GW), K.range("y", 1, GH)
local FX, FY = K.range("x", 1, FW), K.range("y", 1, FH)

local GRAPH_SIGS = {
  add_node = { { K.finite("x"), 1 }, { K.finite("y"), 2 }, { K.finite("z", true), 3 } },
  add_edge = { { NODE, 1 }, { NODE, 3 }, { K.cost("cost"), 1 }, { K.tag, "t" } },
  connect = { { NODE, 1 }, { NODE, 3 }, { K.cost("cost"), 1 }, { K.tag, "t" } },
  node_count = {},
  edge_count = {},
  position = { { NODE, 2 } },
  edge = { { EDGE, 1 } },
  set_cost = { { EDGE, 1 }, { K.cost("cost"), 5 } },
  set_enabled = { { NODE, 2 }, { K.bool, true } },
  is_enabled = { { NODE, 2 } },
  find_path = { { NODE, 1 }, { NODE, 3 }, { K.opts, {} } },
  query = { { NODE, 1 }, { NODE, 3 }, { K.opts, {} } },
  distances = { { K.sources, { 1 } }, { K.opts, {} } },
  connected = { { NODE, 1 }, { NODE, 3 } },
  would_disconnect = { { NODE, 2 }, { K.list("nodes"), { 1, 3 } } },
  distances_query = { { K.sources, { 1 } }, { K.opts, {} } },
  nearest = { { K.finite("x"), 1 }, { K.finite("y"), 2 }, { K.finite("z", true), 3 } },
  version = {},
  path_valid = { { K.valid_path("node"), { nodes = { 1 } } },
    { K.optional(K.range("from_index", 1, 1)), 1 }, { K.opts, {} } },
  find_nearest = { { NODE, 1 }, { K.nonempty_list("goals"), { 3 } }, { K.opts, {} } },
}

-- The methods every grid has (both classes register one set of them).
local function cell_sigs(what, since_max)
  return {
    set_blocked = { { GX, 2 }, { GY, 2 }, { K.bool, false } },
    set_blocked_rect = { { GX, 3 }, { GY, 2 }, { GX, 3 }, { GY, 3 }, { K.bool, false } },
    set_blocked_cells = { { K.cell_list, { { 3, 2 } } }, { K.bool, false } },
    set_cost_rect = { { GX, 3 }, { GY, 2 }, { GX, 3 }, { GY, 3 }, { K.cost("cost"), 2 } },
    set_cost_cells = { { K.cell_list, { { 3, 2 } } }, { K.cost("cost"), 2 } },
    set_tag_rect = { { GX, 3 }, { GY, 2 }, { GX, 3 }, { GY, 3 }, { K.tag, "mud" } },
    set_tag_cells = { { K.cell_list, { { 3, 2 } } }, { K.tag, "mud" } },
    is_blocked = { { GX, 2 }, { GY, 2 } },
    set_cost = { { GX, 2 }, { GY, 2 }, { K.cost("cost"), 1 } },
    get_cost = { { GX, 2 }, { GY, 2 } },
    set_tag = { { GX, 2 }, { GY, 2 }, { K.tag, "mud" } },
    get_tag = { { GX, 2 }, { GY, 2 } },
    id = { { GX, 2 }, { GY, 2 } },
    xy = { { K.id("cell", GW * GH, what), 7 } },
    size = {},
    memory = {},
    neighbours = { { GX, 2 }, { GY, 2 } },
    line_of_sight = { { GX, 1 }, { GY, 1 }, { GX, 4 }, { GY, 3 }, { K.size, 2 } },
    clearance = { { GX, 2 }, { GY, 2 } },
    connected = { { GX, 1 }, { GY, 1 }, { GX, 5 }, { GY, 4 } },
    would_disconnect = { { GX, 2 }, { GY, 2 }, { K.list("cells"), { { 1, 1 }, { 3, 3 } } } },
    visible_from = { { GX, 2 }, { GY, 2 }, { K.cost("radius", true), 2 } },
    to_string = { { K.path, {} } },
    to_table = {},
    find_path = { { GX, 1 }, { GY, 1 }, { GX, GW }, { GY, GH }, { K.opts, {} } },
    query = { { GX, 1 }, { GY, 1 }, { GX, GW }, { GY, GH }, { K.opts, {} } },
    distances = { { K.sources, { { 1, 1 } } }, { K.opts, {} } },
    distances_query = { { K.sources, { { 1, 1 } } }, { K.opts, {} } },
    to_world = { { GX, 2 }, { GY, 2 } },
    world = {},
    nearest_open = { { GX, 2 }, { GY, 2 }, { K.size, 1 }, { K.bound("max_radius"), 3 } },
    spread = { { GX, 2 }, { GY, 2 }, { K.range("n", 1, 2147483647), 3 }, { K.size, 1 } },
    version = {},
    changes = { { K.range("since", 0, since_max), 0 }, { K.optional(K.range("max", 1, 4096)), 10 } },
    path_valid = { { K.valid_path("cell"), { nodes = { 1 } } },
      { K.optional(K.range("from_index", 1, 1)), 1 }, { K.opts, {} } },
    find_nearest = { { GX, 1 }, { GY, 1 }, { K.nonempty_list("goals"), { { GW, GH } } }, { K.opts, {} } },
    flee = { { GX, 1 }, { GY, 1 }, { K.nonempty_list("threats"), { { GW, GH } } }, { K.opts, {} } },
  }
end

local GRID_SIGS = cell_sigs("grid", new_grid():version())
GRID_SIGS.diagonal = {}
GRID_SIGS.precompute_jumps = { { K.optional(K.bool), true } }
GRID_SIGS.has_jumps = {}
GRID_SIGS.smooth = { { K.smooth_path, { nodes = { 1, 2, 7 } } }, { K.opts, {} } }
GRID_SIGS.to_cell = { { K.finite("x"), 1.5 }, { K.finite("y"), 0.5 } }

local HEX_SIGS = cell_sigs("hex grid", new_hex():version())
HEX_SIGS.layout = {}
HEX_SIGS.distance = { { GX, 1 }, { GY, 1 }, { GX, 5 }, { GY, 4 } }
HEX_SIGS.to_cell = { { K.finite("x"), 2.5 }, { K.finite("y"), 1.5 } }

local FIELD_SIGS = {
  get = { { FX, 2 }, { FY, 2 } },
  set = { { FX, 2 }, { FY, 2 }, { K.finite("value"), 1 } },
  fill = { { K.finite("value"), 0 } },
  add_disc = { { FX, 2 }, { FY, 2 }, { K.cost("radius"), 1 }, { K.finite("value"), 1 } },
  size = {},
  stale = {},
  version = {},
}

-- a field made by grid:distances has more methods
local DFIELD_SIGS = { next_step = { { FX, 2 }, { FY, 2 } }, update = {} }
for k, v in pairs(FIELD_SIGS) do DFIELD_SIGS[k] = v end

local MODULE_SIGS = {
  grid = { { K.range("width", 1, 65535), 3 }, { K.range("height", 1, 65535), 3 }, { K.opts, {} } },
  grid_from_string = { { K.text, ".." }, { K.opts, {} }, { K.opts, {} } },
  grid_from_table = { { K.rows, { { 0, 1 } } }, { K.legend, {} }, { K.opts, {} } },
  hex_from_table = { { K.rows, { { 0, 1 } } }, { K.legend, {} }, { K.opts, {} } },
  hex = { { K.range("width", 1, 65535), 3 }, { K.range("height", 1, 65535), 3 }, { K.opts, {} } },
  field = { { K.cells, U_GRID }, { K.finite("value", true), 1 } },
  batch = { { K.topo, U_GRID }, { K.requests, {} }, { K.opts, {} } },
}

-- The argument list for `sig` with value e at position i (later arguments
-- dropped when e is "none").
local function args_with(sig, i, e)
  local args, n = {}, 0
  for j, s in ipairs(sig) do
    if j == i then
      if e.v == NONE then break end
      args[j] = e.v
    else
      args[j] = s[2]
    end
    n = j
  end
  return args, n
end

-- The message with "userdata" replaced by the type's name (see "type errors
-- name astar userdata types" below); nil when unchanged.
local function named(e, msg)
  if e.ud and msg and msg:sub(-#" got userdata") == " got userdata" then
    return msg:sub(1, -#"userdata" - 1) .. e.d
  end
end

local RECEIVERS = {
  { "Graph", GRAPH_SIGS, new_graph, graph_snapshot, graph_ok },
  { "Grid", GRID_SIGS, new_grid, grid_snapshot, grid_ok },
  { "Hex", HEX_SIGS, new_hex, hex_snapshot, hex_ok },
  { "Field", FIELD_SIGS, new_field, field_snapshot, field_ok },
  { "Field (distances)", DFIELD_SIGS, new_dfield, field_snapshot, field_ok },
}

describe("hostile arguments", function()
  for _, R in ipairs(RECEIVERS) do
    local cls, sigs, make, snap, healthy = R[1], R[2], R[3], R[4], R[5]
    for _, m in ipairs(sorted_keys(sigs)) do
      local sig = sigs[m]
      describe(cls .. ":" .. m, function()
        it("accepts its valid arguments", function()
          local o = make()
          caller(m)(o, unpack((args_with(sig, 0, VALUES[1])), 1, #sig))
          healthy(o)
        end)
        -- every argument as every hostile value, in one test (thousands of
        -- tests would each keep their record for the run's end): each case
        -- that goes wrong is named in the failure
        if #sig > 0 then
          it("takes or refuses each argument as each hostile value", function()
            local wrong = {}
            for i, s in ipairs(sig) do
              for _, e in ipairs(VALUES) do
                local want = s[1](e)
                if not named(e, want) and not (e.v == NONE and MISSING[s[1]]) then
                  local ok, err = pcall(function()
                    local o = make()
                    local before = snap(o)
                    local args, n = args_with(sig, i, e)
                    if want then
                      assert.equal(("bad argument #%d to '%s' (%s)"):format(i, m, want),
                        error_of(caller(m), o, unpack(args, 1, n)))
                      assert.equal(before, snap(o))
                    else
                      caller(m)(o, unpack(args, 1, n))
                    end
                    healthy(o)
                  end)
                  if not ok then wrong[#wrong + 1] = ("argument #%d as %s: %s"):format(i, e.label, tostring(err)) end
                end
              end
            end
            assert(#wrong == 0, table.concat(wrong, "\n"))
          end)
        end
        if #sig == 0 then
          it("ignores extra arguments", function()
            local o = make()
            caller(m)(o, "extra", {}, NAN)
            healthy(o)
          end)
        end
      end)
    end
  end

  for _, m in ipairs(sorted_keys(MODULE_SIGS)) do
    local sig = MODULE_SIGS[m]
    describe("astar." .. m, function()
      it("takes or refuses each argument as each hostile value", function()
        local wrong = {}
        for i, s in ipairs(sig) do
          for _, e in ipairs(VALUES) do
            local want = s[1](e)
            if not named(e, want) then
              local ok, err = pcall(function()
                local args, n = args_with(sig, i, e)
                if want then
                  assert.equal(("bad argument #%d to '%s' (%s)"):format(i, m, want),
                    error_of(astar[m], unpack(args, 1, n)))
                else
                  local r = astar[m](unpack(args, 1, n))
                  assert.is_true(type(r) == "userdata" or type(r) == "table") -- batch: paths
                end
                module_ok()
              end)
              if not ok then wrong[#wrong + 1] = ("argument #%d as %s: %s"):format(i, e.label, tostring(err)) end
            end
          end
        end
        assert(#wrong == 0, table.concat(wrong, "\n"))
      end)
    end)
  end

  it("astar.graph ignores any arguments", function()
    for _, e in ipairs(VALUES) do
      local g = astar.graph(e.v, e.v)
      assert.equal("astar.Graph (0 nodes, 0 edges)", tostring(g))
      graph_ok(g)
    end
  end)

  it("every method of Graph, Grid, Hex and Field has argument rows", function()
    local objs = { Graph = astar.graph(), Grid = astar.grid(2, 2), Hex = astar.hex(2, 2), Field = U_FIELD,
      ["Field (distances)"] = new_dfield() }
    local missing = {}
    for _, R in ipairs(RECEIVERS) do
      for name in pairs(getmetatable(objs[R[1]]).__index) do
        if not R[2][name] and name ~= "close" and not (R[1] == "Field" and DFIELD_SIGS[name]) then
          missing[#missing + 1] = R[1] .. ":" .. name
        end
      end
    end
    table.sort(missing)
    -- a new method is covered by self_spec.lua and closed_spec.lua; this
    -- asks for its argument rows too
    assert.same({}, missing)
  end)
end)

-- An absent argument is "no value", as in Lua's own libraries, ids and
-- sources included.
describe("a missing argument says 'got no value'", function()
  for _, R in ipairs(RECEIVERS) do
    local cls, sigs, make, snap, healthy = R[1], R[2], R[3], R[4], R[5]
    for _, m in ipairs(sorted_keys(sigs)) do
      for i, s in ipairs(sigs[m]) do
        if MISSING[s[1]] then
          it(("%s:%s without argument #%d"):format(cls, m, i), function()
            local o = make()
            local before = snap(o)
            local args, n = args_with(sigs[m], i, VALUES[1])
            assert.equal(("bad argument #%d to '%s' (%s)"):format(i, m, s[1](VALUES[1])),
              error_of(caller(m), o, unpack(args, 1, n)))
            assert.equal(before, snap(o))
            healthy(o)
          end)
        end
      end
    end
  end
end)

-- A type error names astar's userdata by type, "got astar.Grid" (as
-- luaL_typeerror does with __name on 5.3 and 5.4), never "got userdata".
describe("type errors name astar userdata types", function()
  local function each_ud_case(sigs, fn)
    for _, m in ipairs(sorted_keys(sigs)) do
      for i, s in ipairs(sigs[m]) do
        for _, e in ipairs(VALUES) do
          local want = named(e, s[1](e))
          if want then fn(m, sigs[m], i, e, want) end
        end
      end
    end
  end
  for _, R in ipairs(RECEIVERS) do
    local cls, sigs, make, snap, healthy = R[1], R[2], R[3], R[4], R[5]
    it("in every " .. cls .. " method", function()
      each_ud_case(sigs, function(m, sig, i, e, want)
        local o = make()
        local before = snap(o)
        local args, n = args_with(sig, i, e)
        assert.equal(("bad argument #%d to '%s' (%s)"):format(i, m, want),
          error_of(caller(m), o, unpack(args, 1, n)))
        assert.equal(before, snap(o))
        healthy(o)
      end)
    end)
  end
  it("in the module functions", function()
    each_ud_case(MODULE_SIGS, function(m, sig, i, e, want)
      local args, n = args_with(sig, i, e)
      assert.equal(("bad argument #%d to '%s' (%s)"):format(i, m, want),
        error_of(astar[m], unpack(args, 1, n)))
      module_ok()
    end)
  end)
end)
