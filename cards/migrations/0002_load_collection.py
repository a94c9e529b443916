"""Load the §11 collection (FM-4.2) into the editable CardKind table."""
from django.db import migrations


def load(apps, schema_editor):
    from cards.collection_data import CARDS

    CardKind = apps.get_model("cards", "CardKind")
    for row in CARDS:
        fields = {k: v for k, v in row.items() if k != "slug"}
        CardKind.objects.update_or_create(slug=row["slug"], defaults=fields)


def unload(apps, schema_editor):
    from cards.collection_data import CARDS

    apps.get_model("cards", "CardKind").objects.filter(slug__in=[row["slug"] for row in CARDS]).delete()


class Migration(migrations.Migration):
    dependencies = [("cards", "0001_initial")]
    operations = [migrations.RunPython(load, unload)]
