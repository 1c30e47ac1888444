-- Shared by the specs: error messages without the "file:line: " prefix that
-- Lua adds for the caller's position, so specs can compare them exactly.
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

return helpers
