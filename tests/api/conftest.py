import pytest
from django.contrib.auth import get_user_model

from api.services import api_token_create, api_token_revoke
from tests.fixtures.users import job_operator


@pytest.fixture
def site(db):
    from tests.leaderboard.factories import populated_site

    return populated_site()


@pytest.fixture
def owner(db):
    return job_operator("owner")


@pytest.fixture
def teammate(db):
    return job_operator("teammate")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("outsider", is_staff=False)


@pytest.fixture
def owner_token(owner) -> str:
    return api_token_create(user=owner, name="owner's token")[1]


@pytest.fixture
def revoked_teammate_token(teammate) -> str:
    token, raw = api_token_create(user=teammate, name="old")
    api_token_revoke(token=token)
    return raw


@pytest.fixture
def outsider_token(outsider) -> str:
    return api_token_create(user=outsider, name="outsider")[1]


def bearer(raw: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {raw}"}
