from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Podium administration"
admin.site.site_title = "Podium administration"
admin.site.index_title = "Models, benchmarks and jobs"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("", include("leaderboard.urls")),
]
