--- Maps the way Lua games hold them: a 2-D table of numbers or strings.
--
--   astar.grid_from_table(rows [, legend [, opts]]) -> grid
--   astar.grid_from_table(rows, opts)                -> grid (opts.legend)
--   astar.hex_from_table(rows [, legend [, opts]])  -> hex grid
--   astar.hex_from_table(rows, opts)                 -> hex grid (opts.legend)
--   grid:to_table(), hex:to_table()                 -> rows (in C: src/lcells.c)
--
-- rows[y][x] is the value of cell (x, y), as Jumper and most Lua games
-- store a map.  The legend maps each value to what the cell is, with the
-- entries of astar.grid_from_string's legend: true (open), false
-- (blocked), a number (open, that cost), a string (open, that tag) or
-- { blocked =, cost =, tag = }; legend.default covers every value it does
-- not list.  Without an entry of the caller's, 0 is open and 1 blocked
-- (Jumper's usual walkable = 0), "." open, "#" and "@" blocked (the text
-- maps' characters); the caller's legend adds to these and overrides them.
-- Everything is checked before the grid is made, so an error leaves
-- nothing behind.  Built on the public grid API (astar.grid, set_blocked,
-- set_cost, set_tag ...), so it serves any backend; where the backend has
-- core._set_blocked_all (the C module), the blocked cells are written with
-- it at once, so the component labels are built once while the grid is
-- made, not marked cell by cell for the first question to relabel.
local describe = require("astar.describe").value
local set_blocked_all = require("astar.backend").core._set_blocked_all

local M = {}

local DEFAULT_LEGEND = { [0] = true, [1] = false, ["."] = true, ["#"] = false, ["@"] = false }

-- A bad argument found while checking: raised as a marked table, which
-- the entry point turns into a message at its caller's position.
local BAD = {}
local function arg_error(fname, n, msg)
  error({ [BAD] = ("bad argument #%d to '%s' (%s)"):format(n, fname, msg) })
end

local function finite_cost(v)
  return type(v) == "number" and v >= 0 and v < math.huge
end

-- The cell a legend entry describes: { blocked, cost, tag }, or raises
-- naming legend[key].
local function read_entry(fname, key, v)
  local name = describe(key)
  if v == true then return { false, 1, nil } end
  if v == false then return { true, 1, nil } end
  if type(v) == "number" then
    if finite_cost(v) then return { false, v, nil } end
  elseif type(v) == "string" then
    return { false, 1, v }
  elseif type(v) == "table" then
    for k in pairs(v) do
      if k ~= "blocked" and k ~= "cost" and k ~= "tag" then
        arg_error(fname, 2, ("legend[%s] has an unknown field %s (expected blocked, cost or tag)")
          :format(name, describe(k)))
      end
    end
    local blocked, cost, tag = v.blocked, v.cost, v.tag
    if blocked ~= nil and type(blocked) ~= "boolean" then
      arg_error(fname, 2, ("legend[%s].blocked must be a boolean, got %s"):format(name, describe(blocked)))
    end
    if cost ~= nil and not finite_cost(cost) then
      arg_error(fname, 2, ("legend[%s].cost must be a finite number >= 0, got %s"):format(name, describe(cost)))
    end
    if tag ~= nil and type(tag) ~= "string" then
      arg_error(fname, 2, ("legend[%s].tag must be a string (tag name), got %s"):format(name, describe(tag)))
    end
    return { blocked or false, cost or 1, tag }
  end
  arg_error(fname, 2, ("legend[%s] must be true, false, a cost, a tag name or { blocked =, cost =, tag = }, got %s")
    :format(name, describe(v)))
end

-- The legend as a table value -> entry (and the default entry, or nil);
-- what: how the caller named it ("legend" or "opts.legend").
local function read_legend(fname, legend, what)
  if legend ~= nil and type(legend) ~= "table" then
    arg_error(fname, 2, ("%s must be a table, got %s"):format(what, describe(legend)))
  end
  local entries = {}
  for k, v in pairs(DEFAULT_LEGEND) do entries[k] = read_entry(fname, k, v) end
  local default
  if legend then
    for k, v in pairs(legend) do
      if k == "default" then
        default = read_entry(fname, k, v)
      elseif type(k) == "number" or type(k) == "string" then
        entries[k] = read_entry(fname, k, v)
      else
        arg_error(fname, 2, ("legend keys must be numbers or strings, got %s"):format(describe(k)))
      end
    end
  end
  return entries, default
end

-- The checked map: width, height and the entry of every cell, row after row
-- (nargs: how many arguments the caller gave, to tell no value from nil).
local function read_rows(fname, nargs, rows, legend, what)
  if type(rows) ~= "table" or rawget(rows, 1) == nil then
    arg_error(fname, 1, ("rows must be a non-empty list of rows, got %s"):format(
      nargs == 0 and "no value" or type(rows) == "table" and "an empty table" or describe(rows)))
  end
  local entries, default = read_legend(fname, legend, what)
  local height, width = #rows, nil
  local cells = {} -- the entry of every cell, row after row
  for y = 1, height do
    local row = rawget(rows, y)
    if type(row) ~= "table" then
      arg_error(fname, 1, ("rows[%d] must be a list of values, got %s"):format(y, describe(row)))
    end
    local n = #row
    if width == nil then
      width = n
      if width == 0 then arg_error(fname, 1, "rows[1] is empty (a row needs at least one value)") end
    elseif n ~= width then
      arg_error(fname, 1, ("rows[%d] has %d value%s, rows[1] has %d (every row must be as long as the first)")
        :format(y, n, n == 1 and "" or "s", width))
    end
    for x = 1, width do
      local v = rawget(row, x)
      local e = entries[v] or default
      if e == nil then
        arg_error(fname, 1, ("unknown value %s at rows[%d][%d] (add it to the legend)"):format(describe(v), y, x))
      end
      cells[#cells + 1] = e
    end
  end
  return width, height, cells
end

-- The two forms of the arguments after rows: (legend, opts), or (opts) with
-- the legend in opts.legend.  The second argument is the options when no
-- third is given and it has a field named as an option (`legend`, or one of
-- the constructor's: OPTION_KEYS[fname]); a legend keyed by one of those
-- words goes in the three-argument form.  Returns the legend, the
-- constructor's options, the argument number they came in and how the
-- legend is named in errors.
local OPTION_KEYS = {
  grid_from_table = { "legend", "diagonal", "cell_size", "origin" },
  hex_from_table = { "legend", "layout", "cell_size", "origin" },
}
local function split_args(fname, nargs, second, third)
  if nargs <= 2 or third == nil then
    if type(second) == "table" then
      for _, k in ipairs(OPTION_KEYS[fname]) do
        if rawget(second, k) ~= nil then
          local opts = {}
          for key, v in pairs(second) do
            if key ~= "legend" then opts[key] = v end
          end
          return rawget(second, "legend"), opts, 2, "opts.legend"
        end
      end
    end
  end
  return second, third, 3, "legend"
end

-- Builds a grid (make = astar.grid or astar.hex) from rows; errors point at
-- the caller of the public function (level 3 from here).
local function from_table(fname, make, nargs, rows, second, third)
  local legend, opts, oarg, what = split_args(fname, nargs, second, third)
  local ok, width, height, cells = pcall(read_rows, fname, nargs, rows, legend, what)
  if not ok then
    if type(width) == "table" and width[BAD] then error(width[BAD], 3) end
    error(width, 0)
  end
  -- the grid options are the constructor's third argument as they are our
  -- third (or second): its error, said by us, at our caller's position
  local made, grid = pcall(make, width, height, opts)
  if not made then
    if type(grid) == "string" and grid:find("bad argument #3 to '", 1, true) then
      error((grid:gsub("^.-bad argument #3 to '[%w_]+'", ("bad argument #%d to '%s'"):format(oarg, fname))), 3)
    end
    error(grid, 0)
  end
  local all = set_blocked_all and type(grid) == "userdata"
  local blocked, nb = {}, 0 -- the blocked cells' ids, written at once
  local i = 0
  for y = 1, height do
    for x = 1, width do
      i = i + 1
      local e = cells[i]
      if e[1] then
        if all then
          nb = nb + 1
          blocked[nb] = i
        else
          grid:set_blocked(x, y, true)
        end
      end
      if e[2] ~= 1 then grid:set_cost(x, y, e[2]) end
      if e[3] then grid:set_tag(x, y, e[3]) end
    end
  end
  if nb > 0 then set_blocked_all(grid, blocked) end
  return grid
end

--- astar.grid_from_table(rows [, legend [, opts]]) or (rows, opts) with
-- opts.legend -> grid (opts as for astar.grid).
function M.grid_from_table(grid_new)
  return function(...)
    local rows, second, third = ...
    local grid = from_table("grid_from_table", grid_new, select("#", ...), rows, second, third)
    return grid -- not a tail call: from_table's errors count this frame (level 3)
  end
end

--- astar.hex_from_table(rows [, legend [, opts]]) or (rows, opts) with
-- opts.legend -> hex grid (opts as for astar.hex).
function M.hex_from_table(hex_new)
  return function(...)
    local rows, second, third = ...
    local grid = from_table("hex_from_table", hex_new, select("#", ...), rows, second, third)
    return grid
  end
end

return M
