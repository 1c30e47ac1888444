-- Shared by the specs: error messages without the "file:line: " prefix that
-- Lua adds for the caller's position, so specs can compare them exactly.
--
-- A spec file's globals are busted's environment: every read of one (math,
-- ipairs, assert ...) walks busted's context tree from the running test up
-- to _G, several calls deep.  Specs whose oracles loop in Lua take the ones
-- they read most as locals at their top (`local assert, math = assert,
-- math`): hex_spec.lua read `math` 13 million times in make test, 8 of its
-- 11 CPU seconds.  This module is required, not run by busted: its globals
-- are plain.
local helpers = {}

--- lcg(seed) -> a deterministic generator of numbers in (0, 1): the same
-- sequence on every Lua (Park and Miller's minimal standard generator: every
-- product stays below 2^53, exact in floats and integers alike).
function helpers.lcg(seed)
  local s = seed % 2147483646 + 1
  return function()
    s = (s * 16807) % 2147483647
    return s / 2147483647
  end
end

--- Calls fn(...) and returns its error message with the position stripped;
-- fails the spec if fn does not raise.
function helpers.error_of(fn, ...)
  local ok, err = pcall(fn, ...)
  assert(not ok, "expected an error, got none")
  if type(err) == "string" then err = err:gsub("^[^\n]-:%d+: ", "", 1) end
  return err
end

--- unsanitized(cmd) -> cmd run without the sanitizer environment of
-- `make check` (LD_PRELOAD of the ASan runtime and its options): the tools a
-- spec starts (make, the compiler, LÖVE) are not under test, and would
-- report their own leaks.
function helpers.unsanitized(cmd)
  -- os.execute and io.popen run commands through /bin/sh: unset works for
  -- shell builtins too (env -u would not run `command -v`)
  return "unset LD_PRELOAD ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; " .. cmd
end

--- quote(s): s as one word of /bin/sh.
function helpers.quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

--- run(cmd) -> ok, output: runs cmd through /bin/sh without the sanitizer
-- environment of make check (unsanitized); ok when it exits 0, output its
-- stdout and stderr.
function helpers.run(cmd)
  local p = assert(io.popen(helpers.unsanitized("(" .. cmd .. ") 2>&1; echo \"exit=$?\"")))
  local out = p:read("*a")
  p:close()
  local code = tonumber(out:match("exit=(%d+)%s*$"))
  return code == 0, (out:gsub("exit=%d+%s*$", ""))
end

--- lua_binary() -> the interpreter running this spec (busted --lua=...):
-- arg[-1] and below when set, else "lua5.4".
function helpers.lua_binary()
  local i, bin = -1, nil
  while arg and arg[i] do bin, i = arg[i], i - 1 end
  return bin or "lua5.4"
end

--- slurp(path): the whole file.
function helpers.slurp(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

--- rng(seed) -> r: Park-Miller's minimal standard generator, exact in both
-- doubles and integers, so a seed gives the same worlds on every Lua.  r()
-- is in [0, 1); r(lo, hi) an integer in lo..hi.
function helpers.rng(seed)
  local state = seed % 2147483646 + 1
  for _ = 1, 4 do state = (state * 16807) % 2147483647 end -- spread small seeds
  return function(lo, hi)
    state = (state * 16807) % 2147483647
    local r = (state - 1) / 2147483646
    if lo then return lo + math.floor(r * (hi - lo + 1)) end
    return r
  end
end

--- close(a, b): equal within 1e-9 relative (absolute below 1).
function helpers.close(a, b)
  return math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a), math.abs(b))
end

--- moving_ai_sweep(load, step, check [, opts]) -> rows: every step-th row of the
-- scenarios of twelve Moving AI maps in ../shared/maps (pending, and nil,
-- without them): load(path) gives the grid searched, find_path's default
-- (or find_path with opts) must reach each row's optimal length, and check(g, p, sx, sy, gx, gy),
-- when given, checks each path; the failures (at most 20 listed) fail it.
helpers.MOVING_AI_MAPS = { "arena", "den312d", "lak303d", "Berlin_0_256", "brc202d", "AR0011SR",
  "CatwalkAlley", "Boston_0_512", "maze512-1-0", "random512-10-0", "random512-20-0", "8room_000" }
function helpers.moving_ai_sweep(load, step, check, opts)
  local source = debug.getinfo(1, "S").source:gsub("^@", "")
  local dir = (source:match("^(.*)/[^/]*$") or ".") .. "/../../shared/maps"
  local f = io.open(dir .. "/README.md", "rb")
  if not f then
    pending("benchmark data not found at " .. dir)
    return
  end
  f:close()
  local maps = require("astar.maps")
  local rows, failures = 0, {}
  for _, name in ipairs(helpers.MOVING_AI_MAPS) do
    local g = load(dir .. "/" .. name .. ".map")
    local list = maps.scenarios(dir .. "/" .. name .. ".map.scen")
    for i = 1, #list, step do
      local s = list[i]
      local p = g:find_path(s.start[1], s.start[2], s.goal[1], s.goal[2], opts)
      rows = rows + 1
      if not p or math.abs(p.cost - s.optimal) > s.tolerance then
        failures[#failures + 1] = ("%s row %d: cost %s, optimal %.10g"):format(name, i, p and p.cost, s.optimal)
      elseif check then
        check(g, p, s.start[1], s.start[2], s.goal[1], s.goal[2])
      end
    end
  end
  assert(#failures == 0, table.concat(failures, "\n", 1, math.min(20, #failures)))
  return rows
end

--- drain(planner, budget [, limit]) -> results, frames: runs planner:update
-- until nothing is pending (at most `limit` frames, default 10000); every
-- result in order and the frames it took.
function helpers.drain(pl, budget, limit)
  local all, frames = {}, 0
  while pl:pending() > 0 do
    frames = frames + 1
    assert(frames <= (limit or 10000), "the planner did not drain")
    for _, r in ipairs(pl:update(budget)) do all[#all + 1] = r end
  end
  return all, frames
end

--- check_grid_walk(g, p, sx, sy, gx, gy): path p is a legal walk on grid g from (sx, sy) to
-- (gx, gy) under g's rule, listing every cell, with nodes, xy and cost consistent.
-- Returns the cost summed here, step by step.
function helpers.check_grid_walk(g, p, sx, sy, gx, gy)
  local la = require("luassert")
  local w = g:size()
  local four = g:diagonal() == "never"
  local nodes, xy = p.nodes, p.xy
  la.equal(#nodes, #xy)
  la.same({ sx, sy }, xy[1])
  la.same({ gx, gy }, xy[#xy])
  local sum = 0
  for i = 1, #nodes do
    local x, y = xy[i][1], xy[i][2]
    if nodes[i] ~= (y - 1) * w + x then error(("cell %d: id %d is not (%d, %d)"):format(i, nodes[i], x, y)) end
    if g:is_blocked(x, y) then error(("cell %d: (%d, %d) is blocked"):format(i, x, y)) end
    if i > 1 then
      local px, py = xy[i - 1][1], xy[i - 1][2]
      local dx, dy = math.abs(x - px), math.abs(y - py)
      if dx > 1 or dy > 1 or dx + dy == 0 then error(("cell %d: not a step between neighbours"):format(i)) end
      if dx + dy == 2 then
        if four then error(("cell %d: diagonal step on a 4-connected grid"):format(i)) end
        -- no corner cutting: both side cells open
        if g:is_blocked(x, py) or g:is_blocked(px, y) then
          error(("cell %d: diagonal step cuts a corner"):format(i))
        end
        sum = sum + require("astar").DIAGONAL
      else
        sum = sum + 1
      end
    end
  end
  la.equal(sum, p.cost)
  return sum
end

--- random_grid(r, w, h, density [, rule]) -> a w x h square grid (diagonal
-- rule `rule`, default no_corner_cutting) with cells blocked at the given
-- density, drawn from generator r (helpers.rng).
function helpers.random_grid(r, w, h, density, rule)
  local g = require("astar").grid(w, h, rule and { diagonal = rule } or nil)
  for y = 1, h do
    for x = 1, w do
      if r() < density then g:set_blocked(x, y, true) end
    end
  end
  return g
end

--- step_between_edits(q, r, most, rounds, edit) steps query q (at most
-- r(1, most) expansions a time) with 1 to 3 calls of edit() between two
-- steps, `rounds` times at most, then to the end (the repair oracles).
function helpers.step_between_edits(q, r, most, rounds, edit)
  local n = 0
  while q:step(r(1, most)) == "searching" and n < rounds do
    n = n + 1
    for _ = 1, r(1, 3) do edit() end
  end
  q:step()
end

--- repair_counts(q) -> a finished path query's repairs, restarts (0 when
-- absent), from its path or its stats.
function helpers.repair_counts(q)
  local p, _, stats = q:result()
  local st = p or stats
  return st.repairs or 0, st.restarts or 0
end

--- same_field(f, fresh, w, h, label [, hx]): every cell of distance field f
-- equals fresh's; next_step from every reached cell leads
-- to a neighbour (of the hex grid hx when given) no farther, and the walk
-- ends at a cell of cost 0.
function helpers.same_field(f, fresh, w, h, label, hx)
  for y = 1, h do
    for x = 1, w do
      local a, b = f:get(x, y), fresh:get(x, y)
      if a ~= b then
        error(("%s: cell (%d,%d) repaired %.17g, fresh %.17g"):format(label, x, y, a, b), 2)
      end
    end
  end
  for y = 1, h do
    for x = 1, w do
      if f:get(x, y) < math.huge then
        local cx, cy, steps = x, y, 0
        while true do
          local nx, ny = f:next_step(cx, cy)
          if not nx then break end
          assert(math.abs(nx - cx) <= 1 and math.abs(ny - cy) <= 1, label .. ": next_step is no neighbour")
          assert(not hx or hx:distance(cx, cy, nx, ny) == 1, label .. ": next_step is no hex neighbour")
          assert(f:get(nx, ny) <= f:get(cx, cy), label .. ": next_step climbs")
          cx, cy, steps = nx, ny, steps + 1
          assert(steps <= w * h, label .. ": next_step loops")
        end
        assert(f:get(cx, cy) == 0, label .. ": the walk ends away from a source")
      end
    end
  end
end

return helpers
