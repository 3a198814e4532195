"""Runs a command while a cache server runs on 127.0.0.1, for
test/driver/remote-cache.test: the server lives exactly as long as the
command, so that a failing test leaves no server behind.

  with_server.py MODE [ROOT] -- COMMAND ARGS...

"@URL@" in the command's arguments becomes the server's URL,
http://127.0.0.1:PORT/ci. Exits with the command's status.

MODE:
  nginx ROOT  Debian's nginx serving ROOT: GET a file (200, else 404), PUT
              stores it through the WebDAV module (a real server, as a CI
              fleet would run one); as the current user, in the foreground,
              with its configuration, logs and temporary files in a folder
              of its own
  junk ROOT   the same nginx, but every GET answers 200 with a line of junk
  readonly ROOT  the same nginx without WebDAV: a PUT is refused (405)
  slow SECS   a server that accepts connections and answers each request
              only after SECS seconds (what is tested is the slowness)
  down        a free port with nothing listening on it
"""
import http.server
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

NGINX = "/usr/sbin/nginx"

CONFIG = """daemon off;
master_process off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 64; }}
http {{
  access_log off;
  client_max_body_size 0;
  client_body_temp_path {dir}/body;
  proxy_temp_path {dir}/proxy;
  fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi;
  scgi_temp_path {dir}/scgi;
  server {{
    listen 127.0.0.1:{port};
    root {root};
    location / {{
      {junk}
      {dav}
    }}
  }}
}}
"""
JUNK = 'if ($request_method = GET) { return 200 "junk, not a cache entry\\n"; }'
DAV = "dav_methods PUT; create_full_put_path on;"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, proc, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def start_nginx(root, junk=False, writable=True):
    """(process, port, folder): nginx on a free port, tried three times
    (another process may take the port between its choice and nginx's bind)."""
    os.makedirs(root, exist_ok=True)
    for _ in range(3):
        d = tempfile.mkdtemp(prefix="cgt-nginx-")
        port = free_port()
        with open(os.path.join(d, "nginx.conf"), "w") as f:
            f.write(CONFIG.format(dir=d, port=port, root=os.path.abspath(root),
                                  junk=JUNK if junk else "",
                                  dav=DAV if writable else ""))
        proc = subprocess.Popen([NGINX, "-p", d, "-c", os.path.join(d, "nginx.conf"),
                                 "-e", os.path.join(d, "error.log")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if wait_listening(port, proc):
            return proc, port, d
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        with open(os.path.join(d, "error.log")) as log:
            sys.stderr.write(log.read())
        shutil.rmtree(d, ignore_errors=True)
    sys.exit("with_server.py: nginx did not start")


class Slow(http.server.BaseHTTPRequestHandler):
    delay = 5.0

    def answer(self, status):
        time.sleep(self.delay)
        try:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
        except OSError:
            pass  # the client gave up first, as it should

    def do_GET(self):
        self.answer(404)

    def do_PUT(self):
        self.answer(201)

    def log_message(self, *args):
        pass


def main():
    split = sys.argv.index("--")
    mode, args, command = sys.argv[1], sys.argv[2:split], sys.argv[split + 1:]
    stop = lambda: None
    if mode in ("nginx", "junk", "readonly"):
        proc, port, folder = start_nginx(args[0], junk=mode == "junk",
                                         writable=mode != "readonly")

        def stop():
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            shutil.rmtree(folder, ignore_errors=True)
    elif mode == "slow":
        Slow.delay = float(args[0])
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
        server.daemon_threads = True
        port = server.server_address[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()

        def stop():
            server.shutdown()
            server.server_close()
    elif mode == "down":
        port = free_port()
    else:
        sys.exit("with_server.py: unknown mode " + mode)
    url = "http://127.0.0.1:%d/ci" % port
    try:
        rc = subprocess.call([a.replace("@URL@", url) for a in command])
    finally:
        stop()
    sys.exit(rc)


if __name__ == "__main__":
    main()
