-- Run once per interpreter, after Lua's libraries, cjson, cmsgpack, bit, struct and the Java half of
-- the redis table are in place (Redis 7.0's scriptingInit, luaEngineInitEngine): the parts of the
-- redis table written in Lua, Redis's error handler, the globals Redis 7.0.15 leaves (no os, io,
-- print, loadfile, dofile, debug, setfenv), and their protection.
-- Called with true for the function libraries' interpreter, false for EVAL's. Returns the function
-- that gives a compiled library the functions' environment, the count hook's arming function, the
-- error handler and the function that gives a compiled script the protected globals.
local forFunctions = ...
local dbg, error, type, tostring, select, setfenv = debug, error, type, tostring, select, setfenv
local luaNext, luaRawget, luaRawset, luaGetmetatable, luaSetmetatable = next, rawget, rawset, getmetatable, setmetatable

-- Every 100,000 instructions, as Redis's luaMaskCountHook: past busy-reply-threshold other clients
-- are let in; once SCRIPT KILL stopped the script, every line raises again, so pcall cannot keep it.
local overdue, register = redis.__overdue, redis.__register_function
redis.__overdue, redis.__register_function = nil, nil
local function stopIfOverdue()
  local err = overdue()
  if err then
    dbg.sethook(stopIfOverdue, 'l')
    error({err = err})
  end
end
local function arm() dbg.sethook(stopIfOverdue, '', 100000) end
arm()

local function errorHandler(err)
  local level = 2
  local i = dbg.getinfo(level, 'nSl')
  -- A killed script's error rises from the hook, whose caller Lua may list as a tail call.
  while i and (i.what == 'C' or i.what == 'tail' or i.source == '=kvd') do
    level = level + 1
    i = dbg.getinfo(level, 'nSl')
  end
  if type(err) ~= 'table' then
    err = tostring(err)
    -- A base function this file wraps raised with the wrapper's position: it is the script's call.
    err = err:gsub('^kvd:%d+: ', i and i.currentline > 0 and i.short_src .. ':' .. i.currentline .. ': ' or '', 1)
    err = {err = 'ERR ' .. err}
  end
  if i then
    err['source'] = i.source
    err['line'] = i.currentline
  end
  return err
end

-- Wrong arguments make these return an error table, not raise one. An error_reply's text is
-- "-CODE message", its dash added when missing, as Redis's luaRedisErrorReplyCommand and
-- luaPushErrorBuff: without a blank after the code, the code is ERR; CR and LF are trimmed.
local wrongArgs = {err = 'ERR wrong number or type of arguments'}
redis.error_reply = function(...)
  local msg = ...
  if select('#', ...) ~= 1 or type(msg) ~= 'string' then return wrongArgs end
  if msg:sub(1, 1) ~= '-' then msg = '-' .. msg end
  local code, text = 'ERR', msg:sub(2)
  local space = msg:find(' ', 1, true)
  if space then code, text = msg:sub(2, space - 1), msg:sub(space + 1) end
  return {err = code .. ' ' .. text:gsub('^[\r\n]+', ''):gsub('[\r\n]+$', '')}
end
redis.status_reply = function(...)
  local msg = ...
  if select('#', ...) ~= 1 or type(msg) ~= 'string' then return wrongArgs end
  return {ok = msg}
end
-- Redis's pcall gives the message of an error table {err=...}, not the table.
local luaPcall = pcall
local function unwrap(ok, ...)
  if ok then return true, ... end
  local err = ...
  if type(err) == 'table' and (type(err.err) == 'string' or type(err.err) == 'number') then
    err = err.err
  elseif type(err) == 'string' then
    -- A wrapped base function's position, which the caught call no longer has to give.
    err = err:gsub('^kvd:%d+: ', '', 1)
  end
  return false, err
end
pcall = function(...) return unwrap(luaPcall(...)) end
-- EVAL's alone, as its error handler's global (Redis keeps the functions' in the registry).
if not forFunctions then
  __redis__err__handler = errorHandler
  redis.replicate_commands = function() return true end
  redis.breakpoint = function() return false end
  redis.debug = function() end
end
redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING = 0, 1, 2, 3
redis.REPL_NONE, redis.REPL_AOF, redis.REPL_SLAVE, redis.REPL_REPLICA, redis.REPL_ALL = 0, 1, 2, 2, 3
redis.REDIS_VERSION, redis.REDIS_VERSION_NUM = '7.0.15', 0x0007000f

-- Redis 7.0 makes the globals and every table reachable from them read-only with a flag its own
-- Lua checks on every store (lua_enablereadonlytable). LuaJava's Lua 5.1 has no such flag, so each
-- such table hides behind an empty proxy that reads through to it and refuses stores. The base
-- functions that pass metatables by (rawset, rawget, next, pairs, getmetatable, setmetatable,
-- table.insert) see through a proxy as Redis's see the protected table.
local hidden, proxies = {}, {}
local function readonly() error('Attempt to modify a readonly table', 2) end
local function proxyOf(t)
  local proxy = {}
  hidden[proxy], proxies[t] = t, proxy
  -- __metatable: what a base function left unwrapped hands out is false, not the way to t.
  luaSetmetatable(proxy, {__index = t, __newindex = readonly, __metatable = false})
  return proxy
end
-- The proxy of t, with every table reachable from t, its metatable's too, behind its own proxy.
local function protect(t)
  if hidden[t] then return t end
  local proxy = proxies[t]
  if proxy then return proxy end
  proxy = proxyOf(t)
  for k, v in luaNext, t do
    if type(v) == 'table' then luaRawset(t, k, protect(v)) end
  end
  local meta = luaGetmetatable(t)
  if meta then protect(meta) end
  return proxy
end

-- lauxlib's argument errors, checked before the originals are called: an original raising one
-- would name this file as its caller. Named as the wrapper's caller named it, '?' from C (pcall).
local getinfo = dbg.getinfo
local function argerror(narg, extramsg)
  local info = getinfo(2, 'n')
  if info.namewhat == 'method' then
    narg = narg - 1
    if narg == 0 then
      error("calling '" .. tostring(info.name) .. "' on bad self (" .. extramsg .. ")", 3)
    end
  end
  error("bad argument #" .. narg .. " to '" .. (info.name or '?') .. "' (" .. extramsg .. ")", 3)
end
local function expected(tname, narg, nargs, value)
  return tname .. ' expected, got ' .. (narg > nargs and 'no value' or type(value))
end

do
  local next = next
  _G.next = function(...)
    local t = ...
    local real = hidden[t]
    if real then return next(real, select(2, ...)) end
    if type(t) ~= 'table' then argerror(1, expected('table', 1, select('#', ...), t)) end
    return next(...)
  end
end
do
  local pairs, proxyNext = pairs, _G.next
  _G.pairs = function(...)
    local t = ...
    if hidden[t] then return proxyNext, t, nil end
    if type(t) ~= 'table' then argerror(1, expected('table', 1, select('#', ...), t)) end
    return pairs(t)
  end
end
do
  local rawget = rawget
  _G.rawget = function(...)
    local t, key = ...
    local nargs = select('#', ...)
    if type(t) ~= 'table' then argerror(1, expected('table', 1, nargs, t)) end
    if nargs < 2 then argerror(2, 'value expected') end
    return rawget(hidden[t] or t, key)
  end
end
do
  local rawset = rawset
  _G.rawset = function(...)
    local t = ...
    local nargs = select('#', ...)
    if type(t) ~= 'table' then argerror(1, expected('table', 1, nargs, t)) end
    if nargs < 3 then argerror(nargs + 1, 'value expected') end
    if hidden[t] then error('Attempt to modify a readonly table', 0) end
    return rawset(...)
  end
end
do
  local getmetatable = getmetatable
  _G.getmetatable = function(...)
    if select('#', ...) == 0 then argerror(1, 'value expected') end
    local value = ...
    local meta = getmetatable(hidden[value] or value)
    return proxies[meta] or meta
  end
end
do
  local setmetatable, rawmetatable = setmetatable, dbg.getmetatable
  _G.setmetatable = function(...)
    local t, meta = ...
    local nargs = select('#', ...)
    if type(t) ~= 'table' then argerror(1, expected('table', 1, nargs, t)) end
    if nargs < 2 or (meta ~= nil and type(meta) ~= 'table') then argerror(2, 'nil or table expected') end
    if hidden[t] then error('Attempt to modify a readonly table', 0) end
    local old = rawmetatable(t)
    if old and luaRawget(old, '__metatable') ~= nil then error('cannot change a protected metatable', 2) end
    -- A protected metatable (the string type's) works as the table behind it.
    return setmetatable(t, hidden[meta] or meta)
  end
end
-- table.insert is as hot as a script's loops: Lua's own checks its arguments, and the error
-- handler gives such an error the script's position instead of this file's.
do
  local insert = table.insert
  table.insert = function(...)
    if hidden[...] then
      -- Redis checks the arguments before the table's flag: Lua's insert checks them on a table of its own.
      insert({}, select(2, ...))
      error('Attempt to modify a readonly table', 0)
    end
    return insert(...)
  end
end

local allowed = {}
for name in ([[ARGV KEYS _G _VERSION __redis__err__handler assert bit cjson cmsgpack collectgarbage coroutine error gcinfo
    getmetatable ipairs load loadstring math next pairs pcall rawequal rawget rawset redis select
    setmetatable string struct table tonumber tostring type unpack xpcall]]):gmatch('%S+') do
  allowed[name] = true
end
for name in luaNext, _G do
  if not allowed[name] then _G[name] = nil end
end

-- Scripts run in a proxy of the globals: EVAL's get it as they are compiled (the function this
-- chunk returns last), loadstring's and load's chunks below. The table behind it stays the
-- thread's globals, where KEYS and ARGV are set at every run without crossing into Lua.
local data = _G
luaSetmetatable(data, {
  __index = function(_, name)
    error("Script attempted to access nonexistent global variable '" .. tostring(name) .. "'", 2)
  end,
  -- LuaJava clears __jthrowable__ at every call of a Java function, and sets it when one throws.
  __newindex = function(t, name, value)
    if name ~= '__jthrowable__' then error('Attempt to modify a readonly table', 2) end
    luaRawset(t, name, value)
  end,
})
local globals = proxyOf(data)
do
  local loadstring, load = loadstring, load
  -- A chunk in the globals themselves could replace a library for every later script.
  data.loadstring = function(...)
    local f, err = loadstring(...)
    if not f then return f, err end
    return setfenv(f, globals)
  end
  data.load = function(...)
    local f, err = load(...)
    if not f then return f, err end
    return setfenv(f, globals)
  end
end
for k, v in luaNext, data do
  if type(v) == 'table' then luaRawset(data, k, protect(v)) end
end
protect(luaGetmetatable(data))
protect(luaGetmetatable(''))

-- Function libraries (Redis's function_lua.c): functions share one environment; while a library
-- loads, its globals are only a redis table of register_function, log and the versions,
-- afterwards they are the globals (without KEYS and ARGV, which only EVAL sets).
local function missing(name)
  error("Script attempted to access nonexistent global variable '" .. tostring(name) .. "'", 3)
end
local loadApi = {log = true, LOG_DEBUG = true, LOG_VERBOSE = true, LOG_NOTICE = true, LOG_WARNING = true,
  REDIS_VERSION = true, REDIS_VERSION_NUM = true}
local realRedis = hidden[data.redis]
local loadRedis = protect(luaSetmetatable({}, {
  __index = function(_, name)
    if name == 'register_function' then return register end
    if not loadApi[name] then missing(name) end
    return realRedis[name]
  end,
}))
local function loading(_, name)
  if name ~= 'redis' then missing(name) end
  return loadRedis
end
local function running(_, name)
  local value = luaRawget(data, name)
  if value == nil then missing(name) end
  return value
end
local meta = {__index = running, __newindex = readonly}
local env = luaSetmetatable({}, meta)
local function libraryEnvironment(library)
  if library then
    meta.__index = loading
    setfenv(library, env)
  else
    meta.__index = running
  end
end
return libraryEnvironment, arm, errorHandler, function(script) return setfenv(script, globals) end
