--- astar.backend (internal): which implementation serves require("astar").
--
--   native  the C module astar.core (the default, whenever it loads)
--   lua     the pure-Lua backend, lua/astar/pure/ (square grids only; see
--           the README's install section), used when astar.core cannot be
--           loaded (LÖVE on Android and iOS, love.js, sandboxed mod hosts)
--
-- The environment variable ASTAR_BACKEND picks one: "lua" forces the
-- pure-Lua backend even where the native module loads (make test-pure runs
-- the specs so), "native" makes a missing native module an error instead of
-- a fallback.  A host without os.getenv (a sandbox) can preset
-- package.loaded["astar.backend"] = { name = "lua", core = require("astar.pure.core") }
-- before its first require("astar").
local forced = os and os.getenv and os.getenv("ASTAR_BACKEND") or nil
if forced == "" then forced = nil end
if forced ~= nil and forced ~= "lua" and forced ~= "native" then
  error(('ASTAR_BACKEND must be "native" or "lua", got "%s"'):format(forced), 2)
end

local core, name, why
if forced ~= "lua" then
  local ok, native = pcall(require, "astar.core")
  if ok then
    core, name = native, "native"
  elseif forced == "native" then
    error(native, 0)
  else
    why = native
  end
end
if not core then
  local ok, pure = pcall(require, "astar.pure.core")
  if not ok then
    -- neither: say why the native module failed first (the usual question)
    error(why and (tostring(why) .. "\n(and the pure-Lua backend astar.pure.core did not load either: "
      .. tostring(pure) .. ")") or pure, 0)
  end
  core, name = pure, "lua"
end

return { core = core, name = name }
