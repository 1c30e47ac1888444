-- bench/fields.lua -- the "fields and batches" rows of `make bench`:
--   field update vs rebuild   a 256² street map (Berlin_0_256), a distance
--                             field to one source; one random cell toggled,
--                             then field:update() against a fresh
--                             grid:distances (medians over the edits, and
--                             the median of the per-edit ratios)
--   batch 1 vs 2 threads      (added with astar.batch)
-- CPU time (os.clock) per edit, alternating update and rebuild, so both
-- see the same machine (shared and noisy).
--
--   lua5.4 bench/fields.lua [edits]
local astar = require("astar")
local maps = require("astar.maps")
local MAPS = os.getenv("MAPS") or "../shared/maps"
local EDITS = tonumber(arg[1] or "200")

local function median(t)
  local c = {}
  for i, v in ipairs(t) do c[i] = v end
  table.sort(c)
  local n = #c
  return n % 2 == 1 and c[(n + 1) / 2] or (c[n / 2] + c[n / 2 + 1]) / 2
end

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

local function field_rows()
  local path = MAPS .. "/Berlin_0_256.map"
  if not exists(path) then
    print("field update: " .. path .. " is absent")
    return
  end
  local g = maps.load(path)
  local w, h = g:size()
  local seed = 12345
  local function r(n) -- a small LCG: the same edits on every run
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed % n + 1
  end
  local sx, sy
  repeat sx, sy = r(w), r(h) until not g:is_blocked(sx, sy)
  local f = g:distances({ { sx, sy } })
  local tu, tr, ratios, kinds = {}, {}, {}, {}
  for i = 1, EDITS do
    local x, y
    repeat x, y = r(w), r(h) until not (x == sx and y == sy)
    g:set_blocked(x, y, not g:is_blocked(x, y))
    local t0 = os.clock()
    local how = f:update()
    local t1 = os.clock()
    local fresh = g:distances({ { sx, sy } })
    local t2 = os.clock()
    kinds[how] = (kinds[how] or 0) + 1
    tu[i], tr[i], ratios[i] = t1 - t0, t2 - t1, (t1 - t0) / (t2 - t1)
    if i % 50 == 0 then -- spot check: the repair equals the fresh field
      for yy = 1, h, 7 do
        for xx = 1, w, 5 do assert(f:get(xx, yy) == fresh:get(xx, yy), "repair differs") end
      end
    end
  end
  print(("field update vs rebuild (%s, %dx%d, %d single-cell edits, %d repaired)"):format(
    "Berlin_0_256", w, h, EDITS, kinds.repaired or 0))
  print(("  update  median %.3f ms"):format(median(tu) * 1e3))
  print(("  rebuild median %.3f ms"):format(median(tr) * 1e3))
  print(("  update / rebuild: median of per-edit ratios %.3f (target <= 0.2)"):format(median(ratios)))
end

field_rows()
