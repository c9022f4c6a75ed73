-- lsfc lsp for Neovim 0.7 or later: LSF configuration files get the
-- filetype "lsf" and a client of `lsfc lsp`, one per tree. Put this file
-- on 'runtimepath' (for example as ~/.config/nvim/plugin/lsfc.lua) or
-- source it from init.lua. Set vim.g.lsfc_cmd to run another binary.

vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  pattern = { 'lsf.conf', 'lsf.shared', 'lsf.task', 'll.conf', 'lsf.cluster.*', 'll.cluster.*', 'lsb.*' },
  command = 'setfiletype lsf',
})

local clients = {}

-- The tree of a file: the nearest directory above it holding lsf.conf,
-- else the file's own directory (the server finds the tree the same way;
-- the root only decides which client serves the buffer).
local function root_of(file)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  local conf = vim.fn.findfile('lsf.conf', dir .. ';')
  if conf ~= '' then
    return vim.fn.fnamemodify(conf, ':p:h')
  end
  return dir
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'lsf',
  callback = function(args)
    local root = root_of(vim.api.nvim_buf_get_name(args.buf))
    local id = clients[root]
    if not id or not vim.lsp.get_client_by_id(id) then
      id = vim.lsp.start_client({
        name = 'lsfc',
        cmd = vim.g.lsfc_cmd or { 'lsfc', 'lsp' },
        root_dir = root,
      })
      clients[root] = id
    end
    if id then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
