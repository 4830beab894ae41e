"""HTTPS to the address that was checked: the socket goes to the resolved and checked address,
the certificate is still verified for the URL's name (SNI and hostname), and the Host header
names it. A receiver with HTTPS on 127.0.0.1 and a certificate made for the test."""

from __future__ import annotations

import datetime as dt
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import timezone

from webhooks import sending

x509 = pytest.importorskip("cryptography.x509")
hashes = pytest.importorskip("cryptography.hazmat.primitives.hashes")
serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
ec = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.ec")
NameOID = x509.oid.NameOID


def _certificate(tmp_path, name: str):
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


@pytest.fixture
def tls_receiver(tmp_path, settings, monkeypatch):
    cert_file, key_file = _certificate(tmp_path, "hooks.test")
    hosts: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            hosts.append(self.headers["Host"])
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(204)
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    settings.FLOOR_WEBHOOKS_ALLOW_LOOPBACK = True
    settings.FLOOR_WEBHOOKS_TIMEOUT = 2.0
    monkeypatch.setattr(sending, "resolve", lambda host, port: ["127.0.0.1"])
    yield server.server_address[1], cert_file, hosts
    server.shutdown()
    server.server_close()


def _send(name: str, port: int) -> sending.Outcome:
    return sending.attempt(
        url=f"https://{name}:{port}/hook",
        secret="whsec_" + "A" * 43 + "=",
        message_id="msg_1",
        payload={"type": "webhook.test"},
        at=timezone.now(),
    )


def test_the_certificate_is_checked_for_the_name_not_the_address(tls_receiver, monkeypatch):
    port, cert_file, hosts = tls_receiver
    monkeypatch.setenv("SSL_CERT_FILE", str(cert_file))  # the test's certificate is trusted
    assert _send("hooks.test", port).status == 204
    assert hosts == [f"hooks.test:{port}"]
    wrong = _send("other.test", port)  # same address, a name the certificate is not for
    assert wrong.status is None and "SSLError" in wrong.error
    assert len(hosts) == 1


def test_an_untrusted_certificate_is_refused(tls_receiver):
    port, _cert, hosts = tls_receiver
    refused = _send("hooks.test", port)
    assert refused.status is None and "CERTIFICATE_VERIFY_FAILED" in refused.error
    assert hosts == []
