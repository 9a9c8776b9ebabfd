"""JupyterHub for a class: one machine serving the difflab kernel to many users.

Each user logs in with their system account (PAM) and gets their own Jupyter server, started as
that user by the LocalProcessSpawner, behind configurable-http-proxy. Every server offers the
`difflab` kernelspec exactly as `difflab-kernel install` writes it: install it once where every
user's Jupyter looks (see docs/jupyterhub.md), for example

    difflab-kernel install --prefix /usr/local      # /usr/local/share/jupyter/kernels/difflab

and start the hub as root from the directory that holds its state (database, cookie secret):

    jupyterhub -f kernel/jupyterhub/jupyterhub_config.py

tests/kernel/test_jupyterhub.py loads this file and replaces only what a test on loopback must
(a dummy authenticator, the SimpleLocalProcessSpawner, free ports, a temporary state directory).
"""

c = get_config()  # noqa: F821 (defined by JupyterHub when it loads this file)

# Where users connect: the proxy's public address. Put TLS in front of it (a reverse proxy,
# or c.JupyterHub.ssl_cert and ssl_key) for anything beyond a trusted network.
c.JupyterHub.bind_url = "http://:8000"
# The proxy is configurable-http-proxy (`npm install -g configurable-http-proxy`), started by the
# hub; it is JupyterHub's default and is named here to be explicit.
c.JupyterHub.proxy_class = "configurable-http-proxy"

# Who may log in: system accounts in the Unix group `difflab`, plus the teacher as admin.
c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.allowed_groups = {"difflab"}
c.Authenticator.admin_users = {"teacher"}

# One server per user, run as that user in their home directory.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.default_url = "/lab"
# A kernelspec installed under a prefix outside Jupyter's default search path is found
# through JUPYTER_PATH, which the hub's environment passes on to every user's server.
c.Spawner.env_keep.append("JUPYTER_PATH")
c.Spawner.start_timeout = 60
c.Spawner.http_timeout = 30
# Free what idle students hold: a kernel idle for 30 minutes is shut down, and a server with no
# kernel and no activity for an hour stops itself (the user's next visit starts it again).
c.Spawner.args = [
    "--MappingKernelManager.cull_idle_timeout=1800",
    "--MappingKernelManager.cull_interval=300",
    "--ServerApp.shutdown_no_activity_timeout=3600",
]
