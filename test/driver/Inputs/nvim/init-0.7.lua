-- docs/editors.md's configuration for Neovim 0.7 to 0.9, as written there.
vim.cmd('filetype on')
local clients = {}  -- root directory -> client id
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'cuda', 'cpp' },
  callback = function(args)
    local file = vim.api.nvim_buf_get_name(args.buf)
    local dir = vim.fn.fnamemodify(file, ':p:h')
    local db = vim.fn.findfile('compile_commands.json', dir .. ';')
    local root = db ~= '' and vim.fn.fnamemodify(db, ':p:h') or dir
    if not clients[root] then
      clients[root] = vim.lsp.start_client({
        name = 'cudagraph-tidy',
        cmd = { 'cudagraph-tidy', 'lsp' },
        root_dir = root,
      })
    end
    vim.lsp.buf_attach_client(args.buf, clients[root])
  end,
})
