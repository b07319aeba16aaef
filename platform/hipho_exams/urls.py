"""HiPhO's pages. Included by leaderboard.urls inside the site's "leaderboard" namespace."""

from django.urls import path

from hipho_exams import views

urlpatterns = [
    path("hipho/", views.hipho, name="hipho"),
    path("hipho/exams/<str:exam_id>/", views.hipho_exam, name="hipho_exam"),
    path("hipho/reported/<int:pk>/", views.hipho_reported, name="hipho_reported"),
    path(
        "hipho/exams/<str:exam_id>/figures/<int:p>/<int:f>", views.hipho_figure, name="hipho_figure"
    ),
]
