"""API tokens: only a hash is stored, revocation is immediate, the admin shows a new token once."""

import hashlib

import pytest

from api.models import ApiToken
from api.services import TokenError, api_token_authenticate, api_token_create, api_token_revoke

pytestmark = pytest.mark.django_db


def test_it_stores_only_a_hash(owner):
    token, raw = api_token_create(user=owner, name="ci")
    stored = ApiToken.objects.get(pk=token.pk)
    assert raw.startswith("pod_") and len(raw) > 40
    assert stored.key_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in str(ApiToken.objects.filter(pk=token.pk).values().get())
    assert stored.prefix == raw[:12]


def test_it_authenticates_and_records_use(owner, owner_token):
    token = api_token_authenticate(owner_token)
    assert token.user == owner
    assert ApiToken.objects.get(pk=token.pk).last_used_at is not None


def test_it_rejects_revoked_unknown_malformed_and_inactive(owner, revoked_teammate_token):
    with pytest.raises(TokenError, match="revoked"):
        api_token_authenticate(revoked_teammate_token)
    with pytest.raises(TokenError, match="unknown"):
        api_token_authenticate("pod_" + "x" * 43)
    with pytest.raises(TokenError, match="malformed"):
        api_token_authenticate("Basic abc")
    token, raw = api_token_create(user=owner, name="x")
    owner.is_active = False
    owner.save()
    with pytest.raises(TokenError, match="inactive"):
        api_token_authenticate(raw)
    api_token_revoke(token=token)
    first = ApiToken.objects.get(pk=token.pk).revoked_at
    api_token_revoke(token=token)  # idempotent: keeps the first revocation time
    assert ApiToken.objects.get(pk=token.pk).revoked_at == first


def test_the_admin_shows_a_new_token_once(client, owner):
    owner.is_superuser = True
    owner.save()
    client.force_login(owner)
    response = client.post(
        "/admin/api/apitoken/add/", {"user": owner.pk, "name": "from admin"}, follow=True
    )
    assert response.status_code == 200
    token = ApiToken.objects.get(name="from admin")
    shown = [str(m) for m in response.context["messages"]]
    raw = next(m.split(": ")[-1] for m in shown if "shown only now" in m)
    assert api_token_authenticate(raw).pk == token.pk
    page = client.get(f"/admin/api/apitoken/{token.pk}/change/").content.decode()
    assert raw not in page and token.prefix in page


def test_the_command_prints_a_token(owner, capsys):
    from django.core.management import call_command

    call_command("api_token", "owner", "--name", "cli")
    raw = capsys.readouterr().out.strip()
    assert api_token_authenticate(raw).name == "cli"
