"""The site's URLs plus one that fails, to see the 500 page a visitor gets (browser tests only)."""

from django.urls import include, path


def boom(request):
    raise RuntimeError("a deliberate failure for the 500 page test")


urlpatterns = [path("boom/", boom), path("", include("podium.urls"))]
