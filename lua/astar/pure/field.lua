--- astar.pure.field (internal): a number per cell of a grid, in the grid's
-- padded layout (v[p], p = y * pw + x + 1), so searches read it with the
-- index they already have.
-- luacheck: ignore 581 (not (a < b) on purpose: NaN compares false both ways)
local U = require("astar.pure.util")
local describe = U.describe
local argerr, raise = U.argerr, U.raise
local floor, huge, sqrt = math.floor, math.huge, math.sqrt

local M = {}
local Field = {}
Field.__index = Field
Field.__name = "astar.Field"
M.Field = Field

local function check(f, fname)
  if getmetatable(f) ~= Field then U.type_error(fname, 1, "astar.Field", f) end
  if f.closed then raise("attempt to use a closed field") end
  return f
end
M.check = check

local function check_mutable(f, fname)
  check(f, fname)
  if f.locks > 0 then raise(("cannot call '%s': field is being searched"):format(fname)) end
  return f
end

local function cell(f, fname, x, y)
  if type(x) ~= "number" then U.type_error(fname, 2, "number", x, true) end
  if x ~= floor(x) or x < 1 or x > f.w then
    argerr(fname, 2, ("x must be an integer in 1..%d, got %s"):format(f.w, describe(x)), true)
  end
  if type(y) ~= "number" then U.type_error(fname, 3, "number", y, true) end
  if y ~= floor(y) or y < 1 or y > f.h then
    argerr(fname, 3, ("y must be an integer in 1..%d, got %s"):format(f.h, describe(y)), true)
  end
  return y * f.pw + x + 1
end

--- new(w, h, value) -> field
function M.new(w, h, value)
  local pw = w + 2
  local v = {}
  value = value + 0.0
  for p = 1, pw * (h + 2) do v[p] = value end
  return setmetatable({ w = w, h = h, pw = pw, v = v, locks = 0, fver = 0, closed = false }, Field)
end

function M.field(g, value)
  local G = require("astar.pure.grid")
  if not G.is_grid(g) then U.type_error("field", 1, "astar.Grid or astar.Hex", g) end
  G.check(g, "field")
  if value == nil then value = 0 end
  U.finite("field", 2, value, "value")
  return M.new(g.w, g.h, value)
end

function Field.get(f, x, y)
  check(f, "get")
  return f.v[cell(f, "get", x, y)]
end

function Field.set(f, x, y, value)
  check_mutable(f, "set")
  local p = cell(f, "set", x, y)
  U.finite("set", 4, value, "value", true)
  value = value + 0.0
  if f.v[p] ~= value then
    f.v[p] = value
    f.fver = f.fver + 1
  end
end

function Field.fill(f, value)
  check_mutable(f, "fill")
  U.finite("fill", 2, value, "value", true)
  value = value + 0.0
  local v, pw = f.v, f.pw
  local any = false
  for y = 1, f.h do
    local base = y * pw + 1
    for x = 1, f.w do
      if v[base + x] ~= value then v[base + x] = value; any = true end
    end
  end
  if any then f.fver = f.fver + 1 end
end

function Field.add_disc(f, x, y, radius, value)
  check_mutable(f, "add_disc")
  cell(f, "add_disc", x, y)
  if type(radius) ~= "number" or not (radius >= 0) or radius == huge then
    argerr("add_disc", 4, ("radius must be a finite number >= 0, got %s"):format(describe(radius)), true)
  end
  U.finite("add_disc", 5, value, "value", true)
  value = value + 0.0
  local v, pw = f.v, f.pw
  local r = floor(radius)
  local x0, x1 = math.max(1, x - r), math.min(f.w, x + r)
  local y0, y1 = math.max(1, y - r), math.min(f.h, y + r)
  local r2 = radius * radius
  for pass = 1, 2 do
    for cy = y0, y1 do
      for cx = x0, x1 do
        local dx, dy = cx - x, cy - y
        if dx * dx + dy * dy <= r2 then
          local p = cy * pw + cx + 1
          local old = v[p]
          if old ~= huge and old ~= -huge then
            local s = old + value
            if pass == 1 and (s == huge or s == -huge) then
              argerr("add_disc", 5,
                ("cell (%d, %d) holds %s: adding %s would make it %s (field values must stay finite)")
                :format(cx, cy, describe(old), describe(value), describe(s)), true)
            end
            if pass == 2 then v[p] = s end
          end
        end
      end
    end
  end
  if value ~= 0 then f.fver = f.fver + 1 end
end
local _ = sqrt

function Field.size(f)
  check(f, "size")
  return f.w, f.h
end

function Field.stale(f)
  check(f, "stale")
  local d = f.dist
  if not d then return false end
  local g = d.grid
  if g.closed then return false end
  return g.ver ~= d.version or (d.penalty ~= nil and d.penalty.fver ~= d.penalty_version)
    or (d.forbid ~= nil and d.forbid.fver ~= d.forbid_version)
end

function Field.next_step(f, x, y)
  check(f, "next_step")
  local d = f.dist
  if not d then raise("next_step needs a field made by grid:distances") end
  local p = cell(f, "next_step", x, y)
  if Field.stale(f) then raise("field is stale (the grid changed since it was computed); call field:update()") end
  local q = d.par[p]
  if q == nil or q == 0 then return nil end
  local pw = f.pw
  local qy = floor((q - 1) / pw)
  return q - 1 - qy * pw, qy
end

function Field.update(f)
  check(f, "update")
  local d = f.dist
  if not d then raise("update needs a field made by grid:distances") end
  if f.locks > 0 then raise("cannot call 'update': field is being searched") end
  if d.grid.closed then raise("attempt to use a closed grid") end
  if not Field.stale(f) then return "current" end
  -- the pure-Lua backend recomputes the field (the native module repairs it
  -- incrementally from the grid's change log)
  local fresh = d.recompute()
  f.v, f.dist = fresh.v, fresh.dist
  f.fver = f.fver + 1
  return "rebuilt"
end

--- field:version(): changes with every change of the field's values
function Field.version(f)
  check(f, "version")
  return f.fver
end

--- field:close() (also __close): every later use raises; a search reading
-- the field finishes first (it holds the values)
function Field.close(f)
  if getmetatable(f) ~= Field then U.type_error("close", 1, "astar.Field", f) end
  f.closed = true
end
Field.__close = Field.close

function Field.__tostring(f)
  if f.closed then return "astar.Field (closed)" end
  return ("astar.Field (%dx%d)"):format(f.w, f.h)
end

return M
