from django.shortcuts import render

from jobs.models import Job


def home(request):
    jobs = Job.objects.order_by("-created_at")[:20]
    return render(request, "leaderboard/home.html", {"jobs": jobs})
