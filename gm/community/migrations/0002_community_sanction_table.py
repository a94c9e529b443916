"""The published sanction table's first lines (staff edit it in the admin): 2 points → 14 days' probation (games
requiring no active sanction refuse the signup), 3 points → no signups for 30 days, 6 points → 90 days."""
from django.db import migrations

LEVELS = [(2, "probation", 14), (3, "no_signup", 30), (6, "no_signup", 90)]


def add(apps, schema_editor):
    SanctionLevel = apps.get_model("community", "SanctionLevel")
    for points, kind, days in LEVELS:
        SanctionLevel.objects.get_or_create(points=points, defaults={"kind": kind, "days": days})


def remove(apps, schema_editor):
    SanctionLevel = apps.get_model("community", "SanctionLevel")
    SanctionLevel.objects.filter(points__in=[p for p, _k, _d in LEVELS]).delete()


class Migration(migrations.Migration):
    dependencies = [("community", "0001_community")]
    operations = [migrations.RunPython(add, remove)]
